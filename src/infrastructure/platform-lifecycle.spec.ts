import { loadConfig } from '../config/config';
import type { EventRelays } from './bus/event-relay';
import type { MessageBus } from './bus/message-bus.port';
import type { EventStore } from './event-store/event-store.port';
import { PlatformLifecycle } from './platform-lifecycle';
import type { ProjectionEngine, ProjectionStatus } from './projections/projection-engine';
import type { ReadStore } from './read-store/read-store.port';
import type { SagaRunner } from './sagas/saga-runner';

/** A lifecycle whose read models report `statuses` and reach the head when `caughtUp()` says so. */
function lifecycle(head: number, statuses: ProjectionStatus[], caughtUp: () => boolean) {
  const projections = {
    start: async () => undefined,
    stop: async () => undefined,
    status: () => statuses,
    // like the engine: waits a while for the head, then says whether it got there
    catchUpTo: async () => caughtUp() || new Promise<boolean>((resolve) => setTimeout(() => resolve(caughtUp()), 10)),
  } as unknown as ProjectionEngine;
  const eventStore = { headPosition: async () => head, close: async () => undefined } as unknown as EventStore;
  const idle = { start: async () => undefined, stop: async () => undefined } as unknown as SagaRunner & EventRelays;
  const closable = { close: async () => undefined } as unknown as ReadStore & MessageBus;
  return new PlatformLifecycle(loadConfig({ DATA_DIR: '/tmp/lifecycle-spec', NODE_ID: 'n1' }), 'api', eventStore, closable, closable, projections, idle, idle);
}

const status = (name: string, position: number, lastError: string | null = null): ProjectionStatus => ({
  name,
  position,
  state: lastError ? 'retrying' : 'catching-up',
  running: !lastError,
  lastError,
});

describe('PlatformLifecycle readiness', () => {
  it('given a node that has not started, then it waits for startup', () => {
    expect(lifecycle(0, [], () => true).readiness()).toEqual({ ready: false, waiting_for: 'startup', detail: expect.any(String) });
  });

  it('given read models behind the head, then it names them and where they are', async () => {
    let caughtUp = false;
    const platform = lifecycle(50, [status('users', 50), status('goals', 20), status('contest', 7, 'boom')], () => caughtUp);
    await platform.onApplicationBootstrap();
    await new Promise((resolve) => setImmediate(resolve));
    expect(platform.readiness()).toEqual({
      ready: false,
      waiting_for: 'projections',
      detail: 'read models catching up to position 50: goals at 20, contest at 7 (failing: boom)',
    });
    caughtUp = true;
    await platform.onApplicationShutdown();
  });

  it('given caught-up read models, then it is ready; once draining, it waits for shutdown', async () => {
    const platform = lifecycle(5, [status('users', 5)], () => true);
    await platform.onApplicationBootstrap();
    await new Promise((resolve) => setImmediate(resolve));
    expect(platform.readiness()).toEqual({ ready: true });
    platform.beginDrain();
    expect(platform.readiness()).toEqual({ ready: false, waiting_for: 'shutdown', detail: 'the node is shutting down' });
  });
});

describe('PlatformLifecycle background writes', () => {
  const idle = { start: async () => undefined, stop: async () => undefined } as unknown as SagaRunner & EventRelays & ProjectionEngine;
  const none = {} as unknown as EventStore & ReadStore & MessageBus;
  const node = (env: Record<string, string>, role: 'api' | 'worker' = 'api') =>
    new PlatformLifecycle(loadConfig({ DATA_DIR: '/tmp/lifecycle-spec', NODE_ID: 'n1', ...env }), role, none, none, none, idle, idle, idle);

  it('given a central node with inline projections, then its sagas and timers append events', () => {
    expect(node({}).writesInBackground()).toBe(true);
  });

  it('given a regional node replaying an upstream, then it runs its projections but appends nothing in the background', () => {
    const regional = node({ SVC_NODE_TIER: 'regional', FEDERATION_UPSTREAM_URL: 'http://central.example:6777' });
    expect(regional.runsBackgroundWork()).toBe(true);
    expect(regional.writesInBackground()).toBe(false);
  });
});
