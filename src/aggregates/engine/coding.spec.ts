import { deciderKit } from '../../../test/support/decider-kit';
import { type CodingRunCommand, codingRunDecider, codingToolDecider } from './coding';

const now = new Date('2026-11-23T10:00:00.000Z');

const run: CodingRunCommand = {
  kind: 'record',
  run_id: 'r1',
  user_id: 'u1',
  tool: 'builtin',
  task_type: 'general',
  model: null,
  code_source: 'client',
  status: 'passed',
  exit_code: 0,
  signal: null,
  duration_ms: 120,
  truncated: false,
  code_chars: 20,
};

describe('coding records', () => {
  const runs = deciderKit(codingRunDecider, now);
  const installs = deciderKit(codingToolDecider, now);

  it('given a run, when recorded, then CodingTaskRan with its outcome; again, nothing', () => {
    const { kind: _kind, ...data } = run;
    runs.given().when(run).then({ type: 'CodingTaskRan', data: { ...data, ran_at: now.toISOString() } });
    runs.given(...runs.history(run)).when(run).thenNothing();
  });

  it('given installs before, when another is recorded, then it is recorded too (every attempt is kept)', () => {
    const install = { kind: 'recordInstall' as const, tool: 'codex', package: '@openai/codex', node_id: 'n', outcome: 'failed' as const, version: null, error: 'E404', installed_by: 'u1', duration_ms: 5 };
    expect(installs.given(...installs.history(install)).when(install).events()).toHaveLength(1);
    expect(installs.after(install, install)).toEqual({ installs: 2 });
  });
});
