/**
 * The scheduler over the embedded stores, with a small in-test ChatPipeline
 * that is idempotent on messageId like the real one: several instances racing
 * for the same due prompts run each once; a claim that never completed is run
 * again after its lease with the same message id; failures retry, refusals do
 * not; shutdown waits for the run in progress.
 */
import { scheduledPromptDecider, scheduledPromptStreamId } from '../aggregates/chat/scheduled-prompt';
import { DomainError } from '../aggregates/shared/domain-error';
import { loadConfig } from '../config/config';
import { Clock } from '../infrastructure/clock';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite/sqlite-event-store';
import { UpcasterRegistry } from '../infrastructure/eventsourcing/upcasters';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { ProjectionRegistry } from '../infrastructure/projections/projection-registry';
import { ProjectionEngine } from '../infrastructure/projections/projection-engine';
import { ReadYourWrites } from '../infrastructure/projections/read-your-writes';
import { EmbeddedReadStore } from '../infrastructure/read-store/embedded/embedded-read-store';
import { SCHEDULED_PROMPTS, type ScheduledPromptDoc, scheduledPromptsProjection } from '../projections/chat/scheduled-prompts.projection';
import { CommandExecutor } from '../modules/common/command-executor';
import { ChatPipeline, type ChatReply, type ChatRequest } from '../modules/chat/chat-pipeline';
import { DEFAULT_SCHEDULE_SETTINGS, type ScheduleSettings, scheduleSettingsOf } from '../modules/chat/schedule/schedule-settings';
import { eventually } from '../../test/support/eventually';
import { isRetryable, PromptScheduler, SCHEDULER_ACTOR } from './scheduled-prompts.scheduler';

const T0 = Date.parse('2026-04-10T12:00:00.000Z');
const RUN_AT = new Date(T0 + 1000);
const context = { actor: 'u1', correlationId: 'req-1', causationId: null };

class MutableClock extends Clock {
  constructor(public ms: number) {
    super();
  }
  now(): Date {
    return new Date(this.ms);
  }
}

/** Records a message id once and answers its first response again, like the real pipeline. */
class InTestPipeline extends ChatPipeline {
  readonly calls: ChatRequest[] = [];
  readonly recorded = new Map<string, ChatReply>();
  readonly failures: unknown[] = [];
  /** the pipeline's working time: part of the given (a run that is still under way), never a wait in a test */
  delayMs = 5;

  async run(request: ChatRequest): Promise<ChatReply> {
    this.calls.push(request);
    await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const failure = this.failures.shift();
    if (failure) throw failure;
    const first = this.recorded.get(request.messageId);
    if (first) return first;
    const reply = { response: `answer #${this.recorded.size + 1} to: ${request.prompt}`, prompt_id: request.promptId, flow_id: 'f', actions_completed: 0, recipe_saved: false };
    this.recorded.set(request.messageId, reply);
    return reply;
  }

  callsFor(messageId: string): ChatRequest[] {
    return this.calls.filter((c) => c.messageId === messageId);
  }
}

const scheduledRun = (messageId: string, prompt: string): ChatRequest => ({
  userId: 'u1',
  promptId: 'p1',
  prompt,
  createAgent: false,
  taskSource: 'own',
  modelConfig: null,
  autonomous: false,
  speculative: false,
  casualConv: false,
  messageId,
  origin: 'schedule',
});

const ready = { writesInBackground: () => true, isReady: () => true } as unknown as PlatformLifecycle;

describe('PromptScheduler', () => {
  let events: SqliteEventStore;
  let reads: EmbeddedReadStore;
  let runner: ProjectionEngine;
  let registry: ProjectionRegistry;
  let clock: MutableClock;
  let pipeline: InTestPipeline;
  let settings: ScheduleSettings;
  const upcasters = new UpcasterRegistry();

  beforeEach(async () => {
    events = new SqliteEventStore({ file: ':memory:', pollIntervalMs: 5 });
    reads = new EmbeddedReadStore({ file: null });
    registry = new ProjectionRegistry([scheduledPromptsProjection]);
    runner = new ProjectionEngine(events, reads, registry);
    await runner.start();
    clock = new MutableClock(T0);
    pipeline = new InTestPipeline();
    settings = { ...DEFAULT_SCHEDULE_SETTINGS, pollIntervalMs: 10, leaseMs: 60_000, retryDelayMs: 5_000, maxAttempts: 3, stopTimeoutMs: 2_000 };
  });

  afterEach(async () => {
    await runner.stop();
    await events.close();
  });

  function executor(nodeId: string): CommandExecutor {
    const config = loadConfig({ NODE_ID: nodeId });
    return new CommandExecutor(events, config, clock, upcasters, new ReadYourWrites(config, 'api', reads, registry, runner));
  }

  function scheduler(nodeId: string): PromptScheduler {
    return new PromptScheduler(executor(nodeId), pipeline, clock, ready, events, reads, loadConfig({ NODE_ID: nodeId }), settings);
  }

  async function schedule(id: string, runAt = RUN_AT, prompt = `prompt of ${id}`): Promise<void> {
    await executor('api').execute(
      scheduledPromptDecider,
      scheduledPromptStreamId(id),
      { kind: 'schedule', scheduleId: id, userId: 'u1', promptId: 'p1', prompt, runAt },
      context,
    );
  }

  const doc = (id: string) => reads.collection<ScheduledPromptDoc>(SCHEDULED_PROMPTS).findOne({ _id: id });
  const typesOf = async (id: string) => (await events.readStream(scheduledPromptStreamId(id))).map((e) => e.type);

  it('given a prompt not yet due, when polled, then nothing runs', async () => {
    await schedule('s0');
    clock.ms = RUN_AT.getTime() - 1;
    expect((await scheduler('n1').poll()).size).toBe(0);
    expect(pipeline.calls).toHaveLength(0);
    expect(await doc('s0')).toMatchObject({ status: 'pending' });
  });

  it('given a due prompt, when polled, then it runs through the pipeline as the schedule and completes', async () => {
    await schedule('s1');
    clock.ms = RUN_AT.getTime();
    expect(await scheduler('n1').poll()).toEqual(new Map([['s1', 'completed']]));
    expect(pipeline.calls).toEqual([scheduledRun('s1', 'prompt of s1')]);
    expect(await typesOf('s1')).toEqual(['PromptScheduled', 'ScheduledPromptClaimed', 'ScheduledPromptCompleted']);
    expect(await doc('s1')).toMatchObject({ status: 'completed', message_id: 's1', response_excerpt: 'answer #1 to: prompt of s1', attempts: 1 });
    const [scheduled, claimed] = await events.readStream(scheduledPromptStreamId('s1'));
    expect(claimed.metadata).toMatchObject({ actor: SCHEDULER_ACTOR, correlationId: 'req-1', causationId: scheduled.metadata.eventId, nodeId: 'n1' });
    // polled again: nothing more
    expect((await scheduler('n1').poll()).size).toBe(0);
    expect(pipeline.calls).toHaveLength(1);
  });

  it('given several instances racing for the same due prompts, then each prompt runs exactly once', async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `race${i}`);
    for (const id of ids) await schedule(id);
    clock.ms = RUN_AT.getTime() + 10;
    const instances = ['n1', 'n2', 'n3', 'n4'].map(scheduler);
    // every instance sees every prompt due in the read model, and polls at once, twice
    await Promise.all(instances.map((s) => s.poll()));
    await Promise.all(instances.map((s) => s.poll()));
    for (const id of ids) {
      expect(pipeline.callsFor(id)).toHaveLength(1);
      expect(await typesOf(id)).toEqual(['PromptScheduled', 'ScheduledPromptClaimed', 'ScheduledPromptCompleted']);
      expect(await doc(id)).toMatchObject({ status: 'completed' });
    }
    expect(pipeline.calls).toHaveLength(ids.length);
  });

  it('given instances that race on runOne directly (read model ignored), then still one run per prompt', async () => {
    await schedule('direct');
    clock.ms = RUN_AT.getTime();
    const outcomes = await Promise.all(['n1', 'n2', 'n3', 'n4', 'n5'].map((n) => scheduler(n).runOne('direct')));
    expect(outcomes.filter((o) => o === 'completed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(4);
    expect(pipeline.callsFor('direct')).toHaveLength(1);
  });

  it('given a claim that was never completed (crash after the run), then after the lease it runs again with the same message id and the result is recorded once', async () => {
    await schedule('crash');
    clock.ms = RUN_AT.getTime();
    // instance "gone" claims, runs the pipeline, and dies before recording the completion
    const claim = await executor('gone').execute(
      scheduledPromptDecider,
      scheduledPromptStreamId('crash'),
      { kind: 'claim', nodeId: 'gone', leaseMs: settings.leaseMs },
      context,
    );
    expect(claim.events[0].type).toBe('ScheduledPromptClaimed');
    await pipeline.run(scheduledRun('crash', 'prompt of crash'));

    const survivor = scheduler('n2');
    clock.ms = RUN_AT.getTime() + settings.leaseMs - 1;
    expect((await survivor.poll()).size).toBe(0); // the lease still holds
    expect(pipeline.callsFor('crash')).toHaveLength(1);

    clock.ms = RUN_AT.getTime() + settings.leaseMs;
    expect(await survivor.poll()).toEqual(new Map([['crash', 'completed']]));
    expect(pipeline.callsFor('crash').map((c) => c.messageId)).toEqual(['crash', 'crash']);
    expect(pipeline.recorded.size).toBe(1);
    expect(await doc('crash')).toMatchObject({ status: 'completed', attempts: 2, node_id: 'n2', response_excerpt: 'answer #1 to: prompt of crash' });
    const stream = await events.readStream(scheduledPromptStreamId('crash'));
    expect(stream.map((e) => [e.type, (e.data as { attempt?: number }).attempt])).toEqual([
      ['PromptScheduled', undefined],
      ['ScheduledPromptClaimed', 1],
      ['ScheduledPromptClaimed', 2],
      ['ScheduledPromptCompleted', undefined],
    ]);
  });

  it('given a transient failure, then the prompt is retried after the delay and completes', async () => {
    await schedule('retry');
    pipeline.failures.push(new Error('model server down'));
    clock.ms = RUN_AT.getTime();
    const s = scheduler('n1');
    expect(await s.poll()).toEqual(new Map([['retry', 'retry']]));
    expect(await doc('retry')).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_error: 'model server down',
      due_at: new Date(RUN_AT.getTime() + settings.retryDelayMs).toISOString(),
    });
    clock.ms += settings.retryDelayMs - 1;
    expect((await s.poll()).size).toBe(0);
    clock.ms += 1;
    expect(await s.poll()).toEqual(new Map([['retry', 'completed']]));
    expect(pipeline.callsFor('retry')).toHaveLength(2);
    expect(await doc('retry')).toMatchObject({ status: 'completed', attempts: 2 });
  });

  it('given failures on every attempt, then it gives up after maxAttempts', async () => {
    await schedule('flaky');
    pipeline.failures.push(new Error('a'), new Error('b'), new Error('c'), new Error('d'));
    clock.ms = RUN_AT.getTime();
    const s = scheduler('n1');
    for (let i = 0; i < 5; i++) {
      await s.poll();
      clock.ms += 60_000;
    }
    expect(pipeline.callsFor('flaky')).toHaveLength(3);
    expect(await doc('flaky')).toMatchObject({ status: 'failed', attempts: 3, last_error: 'c' });
  });

  it('given a refusal of the input (guardrail, budget), then it fails for good without a retry', async () => {
    await schedule('refused');
    pipeline.failures.push(new DomainError('payment_required', 'over budget'));
    clock.ms = RUN_AT.getTime();
    expect(await scheduler('n1').poll()).toEqual(new Map([['refused', 'failed']]));
    clock.ms += 3_600_000;
    expect((await scheduler('n1').poll()).size).toBe(0);
    expect(pipeline.callsFor('refused')).toHaveLength(1);
    expect(await doc('refused')).toMatchObject({ status: 'failed', last_error: 'DomainError: over budget' });
    expect(isRetryable(new Error('x'))).toBe(true);
  });

  it('given a node that is not ready (starting or draining), then it runs nothing', async () => {
    await schedule('wait');
    clock.ms = RUN_AT.getTime();
    const notReady = { writesInBackground: () => true, isReady: () => false } as unknown as PlatformLifecycle;
    const s = new PromptScheduler(executor('n1'), pipeline, clock, notReady, events, reads, loadConfig({ NODE_ID: 'n1' }), settings);
    expect((await s.poll()).size).toBe(0);
    expect(pipeline.calls).toHaveLength(0);
  });

  it('when started, polls on its timer; stop waits for the run in progress', async () => {
    await schedule('timer');
    clock.ms = RUN_AT.getTime();
    pipeline.delayMs = 150;
    const s = scheduler('n1');
    s.onApplicationBootstrap();
    expect(s.running).toBe(true);
    await eventually('the timer’s poll to start the run', () => pipeline.calls.length > 0, { timeoutMs: 5000 });
    await s.onModuleDestroy();
    expect(s.running).toBe(false);
    // the run that was in progress finished and was recorded before stop resolved
    expect(await typesOf('timer')).toEqual(['PromptScheduled', 'ScheduledPromptClaimed', 'ScheduledPromptCompleted']);
  });

  it('where no background writes happen (an API process, a regional node), it does not start', () => {
    const api = { writesInBackground: () => false, isReady: () => true } as unknown as PlatformLifecycle;
    const s = new PromptScheduler(executor('n1'), pipeline, clock, api, events, reads, loadConfig({ NODE_ID: 'n1' }), settings);
    s.onApplicationBootstrap();
    expect(s.running).toBe(false);
  });
});

describe('scheduleSettingsOf', () => {
  it('takes the defaults, with the stop wait at most half of SHUTDOWN_TIMEOUT_MS', () => {
    expect(scheduleSettingsOf(loadConfig({}))).toEqual({ ...DEFAULT_SCHEDULE_SETTINGS, stopTimeoutMs: 5000 });
    expect(scheduleSettingsOf(loadConfig({ SHUTDOWN_TIMEOUT_MS: '4000' })).stopTimeoutMs).toBe(2000);
  });

  it('takes positive numbers of an optional `schedule` section of the configuration', () => {
    const config = { ...loadConfig({}), schedule: { pollIntervalMs: 50, leaseMs: -1, maxAttempts: 5 } };
    expect(scheduleSettingsOf(config)).toMatchObject({ pollIntervalMs: 50, leaseMs: DEFAULT_SCHEDULE_SETTINGS.leaseMs, maxAttempts: 5 });
  });
});
