import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandBus, ICommand } from '@nestjs/cqrs';
import { offlineLanguageModel } from '../../test/support/offline-llm';
import { COMPUTE_DEFAULTS, type ComputeSettings } from '../aggregates/compute/compute-fields';
import type { AppConfig } from '../config/config';
import { InProcessBus } from '../infrastructure/bus/in-process/in-process-bus';
import type { BusMessage, OutgoingMessage } from '../infrastructure/bus/message-bus.port';
import type { NewEvent } from '../infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../infrastructure/event-store/sqlite/sqlite-event-store';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { EmbeddedReadStore } from '../infrastructure/read-store/embedded/embedded-read-store';
import { CompleteSubtask } from '../modules/goals/goals.commands';
import { eventually } from '../../test/support/eventually';
import { HiveWorker } from './hive-worker.listener';
import { HiveResultsListener } from './hive-results.listener';
import { HIVE_TASK_RELAY_CHECKPOINT, HiveTaskRelay } from './hive-tasks.relay';
import { EventRelays } from '../infrastructure/bus/event-relay';

const config = (nodeId: string) => ({ nodeId, kafka: null }) as unknown as AppConfig;
const background = { runsBackgroundWork: () => true, writesInBackground: () => true } as unknown as PlatformLifecycle;
const future = () => new Date(Date.now() + 60_000).toISOString();

function event(type: string, data: Record<string, unknown>, nodeId = 'node-a'): NewEvent {
  return {
    type,
    data: data as NewEvent['data'],
    metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, actor: 't', nodeId, occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

const dispatched = (subtaskId: string, nodeId = 'node-a') =>
  event('SubtaskDispatched', { goal_id: 'g1', subtask_id: subtaskId, description: `what is ${subtaskId.length} + 1`, attempt: 1, dispatched_at: 'd', deadline: future() }, nodeId);


describe('hive task relay, worker and results listener on the in-process bus', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: EmbeddedReadStore;
  let bus: InProcessBus;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hive-'));
    events = new SqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 10 });
    reads = new EmbeddedReadStore({ file: join(dir, 'read.db') });
    bus = new InProcessBus({ retryDelayMs: 10 });
  });
  afterEach(async () => {
    await bus.close();
    await reads.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The relay as the app runs it: on EventRelays, from its checkpoint. */
  const relay = () => {
    const relays = new EventRelays(events, reads, bus);
    relays.register(new HiveTaskRelay(config('node-a'), null));
    return { start: () => relays.start(), stop: () => relays.stop() };
  };
  /** Resolves once the relay has handled every recorded event (its checkpoint is at the store's head). */
  const relayFlushed = () =>
    eventually('the relay to catch up with the store', async () => (await reads.getCheckpoint(HIVE_TASK_RELAY_CHECKPOINT)) === (await events.headPosition()));
  /** The task ids handed to the bus so far, in order. */
  const sent = (publish: jest.SpyInstance<Promise<void>, [string, OutgoingMessage[]]>) =>
    publish.mock.calls.filter(([topic]) => topic === 'svc.hive.tasks').flatMap(([, messages]) => messages.map((m) => (m.value as { task_id: string }).task_id));

  it('publishes this node’s SubtaskDispatched and ExpertRunRequested as tasks, and resumes from its checkpoint after a restart', async () => {
    const publish = jest.spyOn(bus, 'publish');
    const seen: BusMessage[] = [];
    await bus.subscribe({ groupId: 'spy', topics: ['svc.hive.tasks'], fromBeginning: true }, async (m) => void seen.push(m));
    const first = relay();
    await first.start();
    await events.append('goal-g1', [dispatched('s1'), dispatched('s2')], 'any');
    await events.append('goal-g2', [dispatched('s1', 'node-b')], 'any'); // another node's goal: not ours to send
    await events.append(
      'conversation-u1/p1',
      [event('ExpertRunRequested', { run_id: 'run-1', message_id: 'm', user_id: 'u1', prompt_id: 'p1', prompt: 'why', model: null, requested_at: new Date().toISOString() })],
      'any',
    );
    await relayFlushed();
    await first.stop();
    expect(sent(publish)).toEqual(['g1:s1:1', 'g1:s2:1', 'run-1']);
    await eventually('the three tasks on the bus', () => seen.length === 3);
    expect(seen.map((m) => [m.key, (m.value as { task_id: string }).task_id])).toEqual([
      ['g1:s1', 'g1:s1:1'],
      ['g1:s2', 'g1:s2:1'],
      ['run-1', 'run-1'],
    ]);

    await events.append('goal-g1', [event('SubtaskDispatched', { goal_id: 'g1', subtask_id: 's1', description: 'd', attempt: 2, dispatched_at: 'd', deadline: future() })], 'any');
    const second = relay();
    await second.start();
    await relayFlushed();
    await second.stop();
    expect(sent(publish)).toEqual(['g1:s1:1', 'g1:s2:1', 'run-1', 'g1:s1:2']); // nothing before the checkpoint sent again
    await eventually('the fourth task on the bus', () => seen.length === 4);
    expect(seen.map((m) => (m.value as { task_id: string }).task_id)).toEqual(['g1:s1:1', 'g1:s2:1', 'run-1', 'g1:s1:2']);
  });

  it('round trip: relayed tasks run on a worker that takes hive work, and the origin turns the results into commands', async () => {
    let settings: ComputeSettings = { ...COMPUTE_DEFAULTS, hive_compute_policy: 'local_only' };
    const worker = new HiveWorker(config('node-b'), bus, offlineLanguageModel(), { merged: async () => ({ values: settings }) }, background, {
      policyPollMs: 60_000,
    });
    const executed: ICommand[] = [];
    const commands = { execute: async (c: ICommand) => void executed.push(c) } as unknown as CommandBus;
    const listener = new HiveResultsListener(config('node-a'), bus, commands, background);
    const origin = relay();
    await origin.start();
    listener.onApplicationBootstrap();
    await worker.reconcile();
    expect(worker.joined).toBe(false); // refuses: not in the group

    const publish = jest.spyOn(bus, 'publish');
    await events.append('goal-g1', [dispatched('s1'), dispatched('s22')], 'any');
    await relayFlushed();
    expect(sent(publish)).toEqual(['g1:s1:1', 'g1:s22:1']);
    expect(executed).toEqual([]); // no worker is in the group to take the tasks: they wait on the bus

    settings = { ...COMPUTE_DEFAULTS };
    await worker.reconcile();
    expect(worker.joined).toBe(true);
    await eventually('both results turned into commands', () => executed.length >= 2);
    expect(executed.every((c) => c instanceof CompleteSubtask)).toBe(true);
    expect(executed.map((c) => (c as CompleteSubtask).payload.subtaskId).sort()).toEqual(['s1', 's22']);
    expect(executed[0]).toMatchObject({ payload: { goalId: 'g1', attempt: 1, nodeId: 'node-b', source: 'offline' } });

    await worker.onModuleDestroy();
    await listener.onModuleDestroy();
    await origin.stop();
  });
});
