/**
 * The tamper-evident log: every event carries a seal of two SHA-256 hashes,
 * computed at append time by each event-store adapter and checked by
 * {@link verifyLog} (GET /audit/verify, `npm run audit:verify`).
 *
 * Canonical form (version 1):
 *
 *   hash  = sha256_hex( {"stream":S,"revision":R,"type":T,"data":D,"metadata":M,"prev":P} )
 *   chain = sha256_hex( {"prev_chain":C,"hash":H} )
 *
 * where S and T are JSON strings, R a JSON integer, D and M the event's data
 * and metadata as `JSON.stringify` writes them (key order as produced, no
 * whitespace; metadata without the seal), P the `hash` of the event before it
 * in its stream (revision R-1) or null for revision 0 (and for the first
 * sealed event after unsealed ones), H this event's `hash`, and C the `chain`
 * of the event before it in the global log (commit order) or null for the
 * first sealed event. The object text is built by concatenation, with no
 * parse: it is exactly `JSON.stringify({stream, revision, type, data,
 * metadata, prev})`. `JSON.stringify(JSON.parse(text))` reproduces a text
 * that `JSON.stringify` wrote, so an adapter that hands back objects (the
 * EventStoreDB client) can recompute the same bytes.
 *
 * What a change breaks: an edited event (any byte of its type, data or
 * metadata, its stream or revision) no longer matches its `hash`; an edited
 * or removed seal, a removed or reordered event breaks the `prev` link of
 * the next event of its stream (a revision gap) and the `chain` of the next
 * event of the log. Removing the newest events of the log leaves a valid
 * shorter log: compare the head a verification reports with one recorded
 * earlier.
 */
import { createHash } from 'node:crypto';

export interface Seal {
  /** this event's hash (chained to the previous event of its stream) */
  hash: string;
  /** the running hash of the log up to and including this event */
  chain: string;
}

/** An event as the log holds it, for verification: texts exactly as hashed. */
export interface SealedEvent {
  streamId: string;
  revision: number;
  position: number;
  eventId: string;
  type: string;
  /** the data's JSON text */
  data: string;
  /** the metadata's JSON text, without the seal */
  metadata: string;
  /** null for an event written before sealing existed */
  seal: Seal | null;
}

export interface ReadSealedOptions {
  /** events with position strictly greater than this */
  after: number;
  maxCount: number;
}

/** The part of an event store that verification reads. */
export interface SealedLog {
  readSealed(options: ReadSealedOptions): Promise<SealedEvent[]>;
}

export const SEAL_VERSION = 1;

export function eventHash(
  streamId: string,
  revision: number,
  type: string,
  dataText: string,
  metadataText: string,
  prev: string | null,
): string {
  return createHash('sha256')
    .update('{"stream":')
    .update(JSON.stringify(streamId))
    .update(`,"revision":${revision},"type":`)
    .update(JSON.stringify(type))
    .update(',"data":')
    .update(dataText)
    .update(',"metadata":')
    .update(metadataText)
    .update(prev === null ? ',"prev":null}' : `,"prev":"${prev}"}`)
    .digest('hex');
}

export function chainHash(prevChain: string | null, hash: string): string {
  return createHash('sha256')
    .update(prevChain === null ? `{"prev_chain":null,"hash":"${hash}"}` : `{"prev_chain":"${prevChain}","hash":"${hash}"}`)
    .digest('hex');
}

/** Seals one event given its predecessors' hashes. */
export function sealOf(
  event: { streamId: string; revision: number; type: string; data: string; metadata: string },
  prevHash: string | null,
  prevChain: string | null,
): Seal {
  const hash = eventHash(event.streamId, event.revision, event.type, event.data, event.metadata, prevHash);
  return { hash, chain: chainHash(prevChain, hash) };
}

export type BrokenReason =
  /** the event's content, stream, revision or predecessor differs from what was sealed */
  | 'hash_mismatch'
  /** an event before it in the log was removed, reordered or re-sealed */
  | 'chain_mismatch'
  /** an event of its stream before it is missing */
  | 'revision_gap'
  /** the event has no seal although sealed events come before it */
  | 'missing_seal';

export interface BrokenLink {
  stream: string;
  revision: number;
  position: number;
  event_id: string;
  reason: BrokenReason;
  detail: string;
}

export interface Verification {
  ok: boolean;
  /** events walked */
  checked: number;
  /** events before the first sealed one (written before sealing existed): not verifiable */
  unsealed: number;
  /** position of the first sealed event (null: none) */
  sealed_from: number | null;
  /** the last event walked and its running hash (compare with a head recorded earlier to detect a truncated log) */
  head: { position: number; chain: string | null };
  /** the first broken link, or null */
  broken: BrokenLink | null;
}

interface StreamTip {
  revision: number;
  hash: string | null;
}

/**
 * Walks the log in global order from the start and stops at the first
 * broken link. Memory: one entry per stream (its last revision and hash).
 */
export async function verifyLog(
  log: SealedLog,
  options: { pageSize?: number; onProgress?: (position: number, checked: number) => void } = {},
): Promise<Verification> {
  const pageSize = options.pageSize ?? 1000;
  const tips = new Map<string, StreamTip>();
  let chain: string | null = null;
  let sealedFrom: number | null = null;
  let checked = 0;
  let unsealed = 0;
  let after = 0;
  const result = (broken: BrokenLink | null): Verification => ({
    ok: broken === null,
    checked,
    unsealed,
    sealed_from: sealedFrom,
    head: { position: after, chain },
    broken,
  });
  for (;;) {
    const page = await log.readSealed({ after, maxCount: pageSize });
    for (const event of page) {
      const tip = tips.get(event.streamId);
      const broken = (reason: BrokenReason, detail: string): Verification =>
        result({ stream: event.streamId, revision: event.revision, position: event.position, event_id: event.eventId, reason, detail });
      const expectedRevision = tip ? tip.revision + 1 : 0;
      if (event.revision !== expectedRevision) {
        return broken('revision_gap', `expected revision ${expectedRevision} of ${event.streamId}, found ${event.revision}`);
      }
      if (event.seal === null) {
        if (sealedFrom !== null) return broken('missing_seal', 'the event has no seal, but sealed events precede it');
        unsealed++;
        tips.set(event.streamId, { revision: event.revision, hash: null });
      } else {
        const hash = eventHash(event.streamId, event.revision, event.type, event.data, event.metadata, tip?.hash ?? null);
        if (hash !== event.seal.hash) return broken('hash_mismatch', 'the event differs from what was sealed (its content, or its predecessor in the stream)');
        const expectedChain = chainHash(chain, hash);
        if (expectedChain !== event.seal.chain) {
          return broken('chain_mismatch', 'the running hash differs: an event before it in the log was removed, reordered or altered');
        }
        sealedFrom ??= event.position;
        chain = expectedChain;
        tips.set(event.streamId, { revision: event.revision, hash });
      }
      checked++;
      after = event.position;
    }
    options.onProgress?.(after, checked);
    if (page.length < pageSize) return result(null);
    // a long walk leaves room for requests between pages (SQLite reads are synchronous)
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
