import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { CODING_RUNS, type CodingRunDoc, codingRunsProjection as projection } from './coding-runs.projection';

describe('codingRuns projection', () => {
  it('given a recorded run, then one document with its tool, task type, outcome and time; a replay changes nothing', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const ran = recorded(
      'CodingTaskRan',
      { run_id: 'r1', user_id: 'u1', tool: 'builtin', task_type: 'script', model: 'm', code_source: 'model', status: 'timed_out', exit_code: null, signal: 'SIGKILL', duration_ms: 1500, truncated: false, code_chars: 10, ran_at: 't1' },
      { streamId: 'codingRun-r1' },
    );
    await applyAll(projection, store, ran, ran);
    const docs = await store.collection<CodingRunDoc>(CODING_RUNS).find({});
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({ run_id: 'r1', tool: 'builtin', task_type: 'script', status: 'timed_out', duration_ms: 1500, code_source: 'model' });
  });
});
