import { recordedEvent } from '../../test/support/saga-kit';
import { RecordExpertAnswer } from '../modules/chat/chat.commands';
import { CompleteSubtask, FailSubtask } from '../modules/goals/goals.commands';
import type { HiveResult } from '../modules/hive/hive-messages';
import { expertAnswerFor, expertTaskFor, goalCommandFor, subtaskTaskFor } from './hive-tasks';

const recorded = (type: string, data: Record<string, unknown>, nodeId = 'node-a') =>
  recordedEvent(type, data, { nodeId, streamId: 'goal-g1', position: 7, correlationId: 'req-1' });

const subtaskResult = (change: Partial<HiveResult> = {}): HiveResult => ({
  task_id: 'g1:s1:2',
  kind: 'subtask',
  attempt: 2,
  origin_node: 'node-a',
  correlation_id: 'req-1',
  goal_id: 'g1',
  subtask_id: 's1',
  status: 'completed',
  result: 'the answer',
  source: 'model',
  model: 'm1',
  node_id: 'node-b',
  ...change,
});

describe('goal sub-tasks over the hive', () => {
  it('turns SubtaskDispatched of this node into a hive task named goal:subtask:attempt', () => {
    const event = recorded('SubtaskDispatched', { goal_id: 'g1', subtask_id: 's2', description: 'do it', attempt: 3, dispatched_at: 'd', deadline: '2026-01-01T00:00:00.000Z' });
    expect(subtaskTaskFor(event, 'node-a')).toEqual({
      task_id: 'g1:s2:3',
      kind: 'subtask',
      goal_id: 'g1',
      subtask_id: 's2',
      attempt: 3,
      description: 'do it',
      origin_node: 'node-a',
      deadline: '2026-01-01T00:00:00.000Z',
      correlation_id: 'req-1',
    });
    expect(subtaskTaskFor(event, 'node-b')).toBeNull();
    expect(subtaskTaskFor(recorded('GoalAccepted', {}), 'node-a')).toBeNull();
  });

  it('turns results addressed to this node into CompleteSubtask or FailSubtask', () => {
    const done = goalCommandFor(subtaskResult(), 'node-a');
    expect(done).toBeInstanceOf(CompleteSubtask);
    expect(done?.payload).toEqual({ goalId: 'g1', subtaskId: 's1', attempt: 2, result: 'the answer', nodeId: 'node-b', source: 'model', model: 'm1' });
    const failed = goalCommandFor(subtaskResult({ status: 'failed', result: 'model down' }), 'node-a');
    expect(failed).toBeInstanceOf(FailSubtask);
    expect(failed).toMatchObject({ payload: { goalId: 'g1', subtaskId: 's1', attempt: 2, error: 'model down' }, context: { actor: 'node:node-b', correlationId: 'req-1' } });
  });

  it('ignores results for another origin and expert results', () => {
    expect(goalCommandFor(subtaskResult({ origin_node: 'node-c' }), 'node-a')).toBeNull();
    expect(goalCommandFor(subtaskResult({ kind: 'expert', run_id: 'r1' }), 'node-a')).toBeNull();
  });
});

const requested = (nodeId = 'node-a', model: string | null = 'expert-1') =>
  recordedEvent(
    'ExpertRunRequested',
    { run_id: 'run-1', message_id: 'm1', user_id: 'u1', prompt_id: 'p1', prompt: 'explain', model, requested_at: '2026-01-01T00:00:00.000Z' },
    { nodeId, streamId: 'conversation-u1/p1', position: 9, correlationId: 'req-9' },
  );

const expertResult = (change: Partial<HiveResult> = {}): HiveResult => ({
  task_id: 'run-1',
  kind: 'expert',
  attempt: 1,
  origin_node: 'node-a',
  correlation_id: 'req-9',
  run_id: 'run-1',
  user_id: 'u1',
  prompt_id: 'p1',
  status: 'completed',
  result: 'expert answer',
  source: 'model',
  model: 'expert-1',
  node_id: 'node-b',
  ...change,
});

describe('speculative dispatch: expert runs over the hive', () => {
  it('turns ExpertRunRequested of this node into an expert task named by the run id, waiting at most the TTL', () => {
    expect(expertTaskFor(requested(), 'node-a', 900)).toEqual({
      task_id: 'run-1',
      kind: 'expert',
      run_id: 'run-1',
      user_id: 'u1',
      prompt_id: 'p1',
      prompt: 'explain',
      model: 'expert-1',
      attempt: 1,
      origin_node: 'node-a',
      deadline: '2026-01-01T00:15:00.000Z',
      correlation_id: 'req-9',
    });
    expect(expertTaskFor(requested('node-a', null), 'node-a', 900)?.model).toBeNull();
    expect(expertTaskFor(requested('node-b'), 'node-a', 900)).toBeNull();
  });

  it('turns a completed expert result into RecordExpertAnswer (idempotent on the run id downstream)', () => {
    const command = expertAnswerFor(expertResult(), 'node-a');
    expect(command).toBeInstanceOf(RecordExpertAnswer);
    expect(command).toMatchObject({
      payload: { userId: 'u1', promptId: 'p1', runId: 'run-1', response: 'expert answer', model: 'expert-1', source: 'model' },
      context: { actor: 'node:node-b', correlationId: 'req-9' },
    });
  });

  it('ignores failed runs, other origins and sub-task results', () => {
    expect(expertAnswerFor(expertResult({ status: 'failed' }), 'node-a')).toBeNull();
    expect(expertAnswerFor(expertResult({ origin_node: 'node-c' }), 'node-a')).toBeNull();
    expect(expertAnswerFor(expertResult({ kind: 'subtask', goal_id: 'g', subtask_id: 's1' }), 'node-a')).toBeNull();
  });
});
