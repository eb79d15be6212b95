/**
 * A fingerprint of every read model (GET /audit/digest, `npm run
 * projections:digest`): two nodes whose projections applied the same log
 * have equal digests, byte for byte, and a rebuild keeps them.
 *
 * Canonical form, per read model (projection): SHA-256 over, for each of its
 * collections in name order, the line `collection <name>` and then one line
 * per document in `_id` order: the document as JSON with keys sorted at every
 * depth, without the engine's bookkeeping (top-level fields starting with `_`
 * other than `_id`, e.g. `_pos`), dates as ISO 8601 strings.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json';
import type { Doc, ReadStore } from '../read-store/read-store.port';
import type { ProjectionDefinition } from './projection';

export interface ReadModelDigest {
  /** read model name → sha256 hex */
  digests: Record<string, string>;
  /** the lowest checkpoint among the read models: every digest covers the log at least up to here */
  position: number;
}

const PAGE = 1000;

export async function digestReadModels(readStore: ReadStore, projections: readonly ProjectionDefinition[]): Promise<ReadModelDigest> {
  const digests: Record<string, string> = {};
  for (const projection of [...projections].sort((a, b) => a.name.localeCompare(b.name))) {
    const hash = createHash('sha256');
    for (const name of [...projection.collections].sort()) {
      hash.update(`collection ${name}\n`);
      const collection = readStore.collection(name);
      for (let skip = 0; ; skip += PAGE) {
        const page = await collection.find({}, { sort: { _id: 1 }, skip, limit: PAGE });
        for (const document of page) hash.update(`${canonicalDocument(document)}\n`);
        if (page.length < PAGE) break;
      }
    }
    digests[projection.name] = hash.digest('hex');
  }
  const checkpoints = await readStore.getCheckpoints(projections.map((p) => p.name));
  const positions = projections.map((p) => checkpoints.get(p.name) ?? 0);
  return { digests, position: positions.length ? Math.min(...positions) : 0 };
}

/** A document in the canonical form: sorted keys, bookkeeping left out. */
export function canonicalDocument(document: Doc): string {
  const visible: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) if (key === '_id' || !key.startsWith('_')) visible[key] = value;
  return canonicalJson(visible);
}
