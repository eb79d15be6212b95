import { hiveNames, parseHiveResult, parseHiveTask } from './hive-messages';

describe('hive messages', () => {
  it('names topics and groups after KAFKA_TOPIC_PREFIX, svc.hive by default', () => {
    const byDefault = hiveNames(undefined);
    expect(byDefault).toMatchObject({ namespace: 'svc.hive', tasks: 'svc.hive.tasks', results: 'svc.hive.results', workersGroup: 'hive-workers' });
    expect(byDefault.resultsGroup('n1')).toBe('hive-results-n1');
    expect(hiveNames('svc.events').tasks).toBe('svc.hive.tasks');
    const other = hiveNames('e2e.events');
    expect(other).toMatchObject({ tasks: 'e2e.hive.tasks', results: 'e2e.hive.results', workersGroup: 'hive-workers.e2e.hive' });
    expect(other.resultsGroup('n1')).toBe('hive-results-n1.e2e.hive');
    expect(hiveNames('gossip1').tasks).toBe('gossip1.hive.tasks');
  });

  it('accepts well-formed tasks and rejects anything else', () => {
    const task = {
      task_id: 'g:s1:1',
      kind: 'subtask',
      goal_id: 'g',
      subtask_id: 's1',
      attempt: 1,
      description: 'd',
      origin_node: 'n1',
      deadline: '2026-01-01T00:00:00.000Z',
      correlation_id: 'c',
    };
    expect(parseHiveTask(task)).toEqual(task);
    expect(parseHiveTask({ ...task, attempt: 0 })).toBeNull();
    expect(parseHiveTask({ ...task, deadline: 'soon' })).toBeNull();
    expect(parseHiveTask({ ...task, goal_id: 'a b' })).toBeNull();
    expect(parseHiveTask({ ...task, kind: 'mine' })).toBeNull();
    expect(parseHiveTask({ ...task, kind: 'expert' })).toBeNull();
    expect(parseHiveTask(null)).toBeNull();
    expect(parseHiveTask('x')).toBeNull();
  });

  it('accepts well-formed results, filling a missing correlation id', () => {
    const result = {
      task_id: 'r1',
      kind: 'expert',
      attempt: 1,
      origin_node: 'n1',
      run_id: 'r1',
      user_id: 'u1',
      prompt_id: 'p1',
      status: 'completed',
      result: 'ok',
      source: 'model',
      model: 'm',
      node_id: 'n2',
    };
    expect(parseHiveResult(result)).toEqual({ ...result, correlation_id: 'r1' });
    expect(parseHiveResult({ ...result, status: 'done' })).toBeNull();
    expect(parseHiveResult({ ...result, run_id: undefined })).toBeNull();
    expect(parseHiveResult({ ...result, kind: 'subtask' })).toBeNull();
    expect(parseHiveResult({ ...result, source: 'guess' })).toBeNull();
  });
});
