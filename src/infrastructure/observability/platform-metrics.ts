/**
 * The platform's gauges, computed at scrape time from what the parts already
 * know: the log's head, each read model's checkpoint, the saga and relay
 * checkpoints, and the bus consumers' lag. Nothing is counted on the hot path.
 */
import type { EventRelays } from '../bus/event-relay';
import type { MessageBus } from '../bus/message-bus.port';
import type { EventStore } from '../event-store/event-store.port';
import type { ProjectionEngine } from '../projections/projection-engine';
import type { SagaRunner } from '../sagas/saga-runner';
import type { GaugeSample, Metrics } from './metrics';

export interface PlatformParts {
  eventStore: Pick<EventStore, 'headPosition'>;
  projections: Pick<ProjectionEngine, 'status'>;
  sagas: Pick<SagaRunner, 'status' | 'processManagers'>;
  relays: Pick<EventRelays, 'positions'>;
  bus: Pick<MessageBus, 'consumerLag'>;
  /** whether this process runs projections, sagas and relays (their gauges are empty otherwise) */
  runsBackgroundWork(): boolean;
}

export function registerPlatformMetrics(metrics: Metrics, parts: PlatformParts): void {
  const head = () => parts.eventStore.headPosition();
  const behind = (position: number, at: number) => Math.max(0, at - position);

  metrics.gaugeOnScrape('svc_event_store_head_position', 'global position of the last event in the log', [], async () => [[{}, await head()]]);
  metrics.gaugeOnScrape('svc_projection_lag', 'log head position minus the read model checkpoint', ['projection'], async () => {
    if (!parts.runsBackgroundWork()) return [];
    const at = await head();
    return parts.projections.status().map((s): GaugeSample => [{ projection: s.name }, behind(s.position, at)]);
  });
  metrics.gaugeOnScrape('svc_saga_backlog', 'log head position minus the sagas checkpoint', [], async () => {
    if (!parts.runsBackgroundWork() || parts.sagas.processManagers().length === 0) return [];
    return [[{}, behind(parts.sagas.status().position, await head())]];
  });
  metrics.gaugeOnScrape('svc_relay_backlog', 'log head position minus the relay checkpoint', ['relay'], async () => {
    if (!parts.runsBackgroundWork()) return [];
    const at = await head();
    return [...parts.relays.positions()].map(([relay, position]): GaugeSample => [{ relay }, behind(position, at)]);
  });
  metrics.gaugeOnScrape('svc_bus_consumer_lag', 'messages published but not yet handled, per consumer group and topic', ['group', 'topic'], () =>
    (parts.bus.consumerLag?.() ?? []).map((l): GaugeSample => [{ group: l.groupId, topic: l.topic }, l.lag]),
  );
}
