/**
 * The projections this process runs: the one list, src/projections/index.ts,
 * handed over by the app module (infrastructure knows no feature).
 */
import type { ProjectionDefinition } from './projection';

export class ProjectionRegistry {
  private readonly byName = new Map<string, ProjectionDefinition>();
  /** event type → the names of the projections that apply it (every command asks) */
  private readonly byType = new Map<string, string[]>();

  constructor(projections: readonly ProjectionDefinition[] = []) {
    for (const projection of projections) {
      if (this.byName.has(projection.name)) throw new Error(`Projection ${projection.name} registered twice`);
      this.byName.set(projection.name, projection);
      for (const type of projection.eventTypes) this.byType.set(type, [...(this.byType.get(type) ?? []), projection.name]);
    }
  }

  all(): ProjectionDefinition[] {
    return [...this.byName.values()];
  }

  get(name: string): ProjectionDefinition {
    const projection = this.byName.get(name);
    if (!projection) throw new Error(`Unknown projection '${name}' (known: ${[...this.byName.keys()].join(', ')})`);
    return projection;
  }

  /** Names of the projections that apply at least one of these event types. */
  namesFor(eventTypes: readonly string[]): readonly string[] {
    if (eventTypes.length === 1) return this.byType.get(eventTypes[0]) ?? [];
    return [...new Set(eventTypes.flatMap((type) => this.byType.get(type) ?? []))];
  }
}
