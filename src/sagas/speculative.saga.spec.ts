import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { RecordExpertAnswer } from '../modules/chat/chat.commands';
import type { HiveResult } from '../modules/hive/hive-messages';
import { expertAnswerFor, expertTaskFor } from './speculative.saga';

const requested = (nodeId = 'node-a', model: string | null = 'expert-1'): RecordedEvent => ({
  streamId: 'conversation-u1/p1',
  type: 'ExpertRunRequested',
  revision: 3,
  position: 9,
  data: { run_id: 'run-1', message_id: 'm1', user_id: 'u1', prompt_id: 'p1', prompt: 'explain', model, requested_at: '2026-01-01T00:00:00.000Z' },
  recordedAt: 't',
  metadata: { eventId: 'ev9', correlationId: 'req-9', causationId: null, actor: 'u1', nodeId, occurredAt: 't', schemaVersion: 1 },
});

const result = (change: Partial<HiveResult> = {}): HiveResult => ({
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

describe('speculative dispatch', () => {
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
    const command = expertAnswerFor(result(), 'node-a');
    expect(command).toBeInstanceOf(RecordExpertAnswer);
    expect(command).toMatchObject({
      payload: { userId: 'u1', promptId: 'p1', runId: 'run-1', response: 'expert answer', model: 'expert-1', source: 'model' },
      context: { actor: 'node:node-b', correlationId: 'req-9' },
    });
  });

  it('ignores failed runs, other origins and sub-task results', () => {
    expect(expertAnswerFor(result({ status: 'failed' }), 'node-a')).toBeNull();
    expect(expertAnswerFor(result({ origin_node: 'node-c' }), 'node-a')).toBeNull();
    expect(expertAnswerFor(result({ kind: 'subtask', goal_id: 'g', subtask_id: 's1' }), 'node-a')).toBeNull();
  });
});
