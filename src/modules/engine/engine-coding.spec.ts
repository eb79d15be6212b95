import { DomainError } from '../../aggregates/shared/domain-error';
import type { AppConfig } from '../../config/config';
import type { CodingRunDoc } from '../../projections/engine/coding-runs.projection';
import { offlineLanguageModel } from '../../../test/support/offline-llm';
import type { CommandExecutor } from '../common/command-executor';
import { ExecuteCodingTask } from './engine.commands';
import { ExecuteCodingTaskHandler, NO_MODEL_FOR_CODING } from './engine.handlers';
import { benchmarkRows } from './engine-coding.queries';

const run = (tool: string, task_type: string, status: CodingRunDoc['status'], duration_ms: number): CodingRunDoc => ({
  _id: `${tool}${task_type}${duration_ms}`,
  run_id: 'r',
  user_id: 'u',
  tool,
  task_type,
  model: null,
  code_source: 'client',
  status,
  duration_ms,
  ran_at: `2026-11-23T10:00:0${duration_ms % 10}.000Z`,
});

describe('coding', () => {
  it('given no language model and a task without code, then 503 says a model is needed and how to send code instead', async () => {
    const handler = new ExecuteCodingTaskHandler({ engine: { codingTimeoutMs: 1000, codingOutputCap: 1024 } } as AppConfig, offlineLanguageModel(), {} as CommandExecutor);
    const command = new ExecuteCodingTask({ userId: 'u', task: 'print 42', taskType: 'general', preferredTool: null, model: null, code: null, timeoutMs: null }, { actor: 'u', correlationId: 'c' });
    const error = await handler.execute(command).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'unavailable', message: NO_MODEL_FOR_CODING });
  });

  it('aggregates runs per tool and task type: counts, success rate, median time (the middle pair averaged)', () => {
    const runs = [run('builtin', 'a', 'passed', 100), run('builtin', 'a', 'failed', 300), run('builtin', 'b', 'timed_out', 1000), run('builtin', 'a', 'passed', 200)];
    expect(benchmarkRows(runs, true)).toEqual([
      { tool: 'builtin', task_type: 'a', runs: 3, passed: 2, failed: 1, timed_out: 0, success_rate: 0.667, median_ms: 200, last_run_at: expect.any(String) },
      { tool: 'builtin', task_type: 'b', runs: 1, passed: 0, failed: 0, timed_out: 1, success_rate: 0, median_ms: 1000, last_run_at: expect.any(String) },
    ]);
    expect(benchmarkRows(runs, false)).toEqual([expect.objectContaining({ tool: 'builtin', task_type: null, runs: 4, passed: 2, success_rate: 0.5, median_ms: 250 })]);
  });
});
