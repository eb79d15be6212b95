/**
 * The projections this process runs: the one list, src/projections/index.ts,
 * handed over by the app module (infrastructure knows no feature).
 */
import type { ProjectionDefinition } from './projection';

export class ProjectionRegistry {
  private readonly byName = new Map<string, ProjectionDefinition>();

  constructor(projections: readonly ProjectionDefinition[] = []) {
    for (const projection of projections) {
      if (this.byName.has(projection.name)) throw new Error(`Projection ${projection.name} registered twice`);
      this.byName.set(projection.name, projection);
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
  namesFor(eventTypes: readonly string[]): string[] {
    return this.all()
      .filter((p) => eventTypes.some((t) => p.eventTypes.includes(t)))
      .map((p) => p.name);
  }
}
