import { Logger } from '@nestjs/common';
import { COMPUTE_DEFAULTS, type ComputeSettings } from '../aggregates/compute/compute-fields';
import type { AppConfig } from '../config/config';
import { InProcessBus } from '../infrastructure/bus/in-process/in-process-bus';
import type { BusMessage } from '../infrastructure/bus/message-bus.port';
import { type LanguageModel, LlmUnavailableError } from '../infrastructure/llm/llm.port';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import type { ExpertTask, HiveResult, SubtaskTask } from '../modules/hive/hive-messages';
import { eventually } from '../../test/support/eventually';
import { offlineLanguageModel } from '../../test/support/offline-llm';
import { PressureGauge } from '../modules/engine/pressure-gauge';
import { HiveWorker, HiveWorkRefused } from './hive-worker.listener';

const config = { nodeId: 'node-b', kafka: null } as unknown as AppConfig;
const background = { runsBackgroundWork: () => true } as unknown as PlatformLifecycle;

const subtask = (change: Partial<SubtaskTask> = {}): SubtaskTask => ({
  task_id: 'g1:s1:1',
  kind: 'subtask',
  goal_id: 'g1',
  subtask_id: 's1',
  attempt: 1,
  description: 'what is 6 * 7',
  origin_node: 'node-a',
  deadline: new Date(Date.now() + 60_000).toISOString(),
  correlation_id: 'c1',
  ...change,
});

const expert: ExpertTask = {
  task_id: 'run-1',
  kind: 'expert',
  run_id: 'run-1',
  user_id: 'u1',
  prompt_id: 'p1',
  prompt: 'explain',
  model: 'big-model',
  attempt: 1,
  origin_node: 'node-a',
  deadline: new Date(Date.now() + 60_000).toISOString(),
  correlation_id: 'c2',
};

const message = (value: unknown): BusMessage => ({ topic: 'svc.hive.tasks', partition: 0, offset: 0, key: 'k', value, headers: {}, timestamp: 't' });

describe('hive worker', () => {
  let bus: InProcessBus;
  let results: HiveResult[];
  let settings: ComputeSettings;
  let worker: HiveWorker;
  const start = (llm: LanguageModel = offlineLanguageModel(), gauge: PressureGauge | null = null) => {
    worker = new HiveWorker(config, bus, llm, { merged: async () => ({ values: settings }) }, background, { policyPollMs: 60_000 }, gauge);
    return worker;
  };

  beforeAll(() => jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined));
  beforeEach(async () => {
    bus = new InProcessBus({ retryDelayMs: 10, onHandlerError: () => undefined });
    results = [];
    settings = { ...COMPUTE_DEFAULTS };
    await bus.subscribe({ groupId: 'origin', topics: ['svc.hive.results'], fromBeginning: true }, async (m) => void results.push(m.value as HiveResult));
  });
  afterEach(async () => {
    await worker?.onModuleDestroy();
    await bus.close();
  });

  it('runs a sub-task through the LLM port and publishes the result, echoing the task', async () => {
    await start().reconcile();
    await bus.publish('svc.hive.tasks', [{ key: 'g1:s1', value: subtask() }]);
    await eventually('the result on the bus', () => results.length === 1);
    expect(results[0]).toMatchObject({
      task_id: 'g1:s1:1',
      kind: 'subtask',
      goal_id: 'g1',
      subtask_id: 's1',
      attempt: 1,
      origin_node: 'node-a',
      correlation_id: 'c1',
      status: 'completed',
      source: 'offline',
      model: 'offline',
      node_id: 'node-b',
    });
    expect(results[0].result).toContain('42');
  });

  it('given system pressure, when a task arrives, then the worker waits the throttle’s pause before it asks the model', async () => {
    const order: string[] = [];
    class FakeGauge extends PressureGauge {
      async pace(): Promise<number> {
        order.push('paced');
        return 250;
      }
    }
    const llm = offlineLanguageModel();
    const complete = llm.complete.bind(llm);
    llm.complete = async (request) => {
      order.push('model');
      return complete(request);
    };
    await start(llm, new FakeGauge()).handle(message(subtask()));
    expect(order).toEqual(['paced', 'model']);
  });

  it('runs an expert task with its model and echoes the run', async () => {
    const seen: (string | undefined)[] = [];
    const llm = offlineLanguageModel();
    const complete = llm.complete.bind(llm);
    llm.complete = async (request) => {
      seen.push(request.model);
      return { ...(await complete(request)), model: request.model ?? 'x', source: 'model' };
    };
    await start(llm).handle(message(expert));
    expect(seen).toEqual(['big-model']);
    await eventually('the result on the bus', () => results.length === 1);
    expect(results[0]).toMatchObject({ task_id: 'run-1', kind: 'expert', run_id: 'run-1', user_id: 'u1', prompt_id: 'p1', status: 'completed', model: 'big-model', source: 'model' });
  });

  it('given a model error, then it publishes a failed result so the origin can retry', async () => {
    const failing = { kind: 'openai', defaultModel: 'm', complete: async () => Promise.reject(new LlmUnavailableError('model server down')), stream: jest.fn() } as unknown as LanguageModel;
    await start(failing).handle(message(subtask()));
    await eventually('the result on the bus', () => results.length === 1);
    expect(results[0]).toMatchObject({ status: 'failed', result: 'model server down', source: 'model', model: 'm' });
  });

  it('skips a task past its deadline and a malformed one, publishing nothing', async () => {
    const publish = jest.spyOn(bus, 'publish');
    start();
    await worker.handle(message(subtask({ deadline: new Date(Date.now() - 1).toISOString() })));
    jest.spyOn(Logger.prototype, 'warn').mockImplementationOnce(() => undefined);
    await worker.handle(message({ kind: 'subtask', task_id: 'x' }));
    // handle() resolves after its result was published, so none was
    expect(publish).not.toHaveBeenCalled();
  });

  it('given settings that refuse hive work, then it stays out of the group and the task waits on the bus for a node that takes it', async () => {
    settings = { ...COMPUTE_DEFAULTS, max_hive_gpu_pct: 0 };
    await start().reconcile();
    expect(worker.joined).toBe(false);
    await bus.publish('svc.hive.tasks', [{ key: 'g1:s1', value: subtask() }]);
    expect(results).toEqual([]); // no member of hive-workers: nobody can take it
    settings = { ...COMPUTE_DEFAULTS };
    await worker.reconcile();
    await eventually('the waiting task ran once the worker joined', () => results.length === 1);
  });

  it('given settings that changed to refuse since it joined, then the task is left uncommitted and the worker leaves the group', async () => {
    await start().reconcile();
    expect(worker.joined).toBe(true);
    settings = { ...COMPUTE_DEFAULTS, hive_compute_policy: 'local_only' };
    await expect(worker.handle(message(subtask()))).rejects.toThrow(HiveWorkRefused);
    await worker.reconcile(); // drains the leave the refusal began
    expect(worker.joined).toBe(false);

    // through the bus: a task published while it refuses waits until it takes hive work again
    await bus.publish('svc.hive.tasks', [{ key: 'g1:s1', value: subtask({ task_id: 'g1:s1:2', attempt: 2 }) }]);
    expect(results).toEqual([]); // no member of hive-workers: nobody can take it
    settings = { ...COMPUTE_DEFAULTS };
    await worker.reconcile();
    await eventually('the waiting task ran once the worker joined again', () => results.length === 1);
    expect(results[0].task_id).toBe('g1:s1:2');
  });
});
