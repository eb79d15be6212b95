/**
 * Turns events written under an older schema version into the current one on
 * read, so deciders and projections only ever see current shapes. An upcaster
 * is registered per (event type, from version) and lifts data by one version.
 */
import type { JsonObject, RecordedEvent } from '../event-store/event-store.port';

export type Upcaster = (data: JsonObject) => JsonObject;

export class UpcasterRegistry {
  private readonly upcasters = new Map<string, Upcaster>();
  private readonly currentVersions = new Map<string, number>();

  /** Registers the step from `fromVersion` to `fromVersion + 1`. */
  register(eventType: string, fromVersion: number, upcast: Upcaster): void {
    const key = `${eventType}@${fromVersion}`;
    if (this.upcasters.has(key)) throw new Error(`Upcaster already registered for ${key}`);
    this.upcasters.set(key, upcast);
    this.currentVersions.set(eventType, Math.max(this.currentVersion(eventType), fromVersion + 1));
  }

  /** The schema version new events of this type are written with. */
  currentVersion(eventType: string): number {
    return this.currentVersions.get(eventType) ?? 1;
  }

  upcast(event: RecordedEvent): RecordedEvent {
    const target = this.currentVersion(event.type);
    let version = event.metadata.schemaVersion ?? 1;
    if (version >= target) return event;
    let data = event.data;
    while (version < target) {
      const step = this.upcasters.get(`${event.type}@${version}`);
      if (!step) throw new Error(`No upcaster for ${event.type} from schema version ${version}`);
      data = step(data);
      version += 1;
    }
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
  }
}
