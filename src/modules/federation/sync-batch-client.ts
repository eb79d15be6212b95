/**
 * The sending side of POST /hierarchy/sync (social-routes §19), shared by
 * the two senders: a node's sync queue to its parent (sagas/sync-sender)
 * and a regional node's outbox to central (regional-writes.ts). The batch
 * is signed with this node's key (x-node-*); the parent's reply is read as
 * the queue needs it. Never throws: a parent that cannot be reached, refuses
 * the batch or answers something else is a failure of the whole batch.
 */
import type { SyncItem } from '../../aggregates/federation/sync-queue';
import type { NodeKey } from '../../infrastructure/node-identity/node-key';
import { sendSigned } from '../../infrastructure/node-identity/signed-request';

export const HIERARCHY_SYNC_PATH = '/api/social/hierarchy/sync';

/** What the parent answered to a `regional_write` item: the reply its client gets, and the log position the write reached. */
export interface ForwardedReply {
  status: number;
  content_type: string;
  /** the reply headers a client acts on (REPLY_HEADERS): Retry-After of a 429, Location */
  headers: Record<string, string>;
  body: string;
  /** central's log head after the write: the regional node shows the write once it replicated this far */
  position: number;
}

export type SyncBatchReply =
  | { ok: true; processed: string[]; errors: Record<string, string>; replies: Record<string, ForwardedReply> }
  | { ok: false; error: string };

const MAX_ERROR_TEXT = 500;

export async function postSyncBatch(key: NodeKey, nodeId: string, parentUrl: string, items: readonly SyncItem[], timeoutMs: number): Promise<SyncBatchReply> {
  const body = { node_id: nodeId, items: items.map((i) => ({ id: i.id, operation_type: i.operation_type, payload: i.payload })) };
  try {
    const response = await sendSigned(key, nodeId, parentUrl, { method: 'POST', path: HIERARCHY_SYNC_PATH, body }, { signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    let parsed: { processed?: unknown; errors?: unknown; error?: unknown; replies?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      // not JSON: refused below
    }
    if (!response.ok) return { ok: false, error: `HTTP ${response.status}${typeof parsed.error === 'string' ? `: ${parsed.error}` : ''}`.slice(0, MAX_ERROR_TEXT) };
    if (!Array.isArray(parsed.processed)) return { ok: false, error: 'the parent did not answer with a batch reply' };
    return { ok: true, processed: parsed.processed.filter((id): id is string => typeof id === 'string'), errors: errorsOf(parsed.errors), replies: repliesOf(parsed.replies) };
  } catch (error) {
    return { ok: false, error: (error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}` : String(error)).slice(0, MAX_ERROR_TEXT) };
  }
}

function errorsOf(raw: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!Array.isArray(raw)) return errors;
  for (const e of raw as { id?: unknown; error?: unknown }[]) {
    if (e && typeof e.id === 'string') errors[e.id] = typeof e.error === 'string' ? e.error.slice(0, MAX_ERROR_TEXT) : 'refused by the parent';
  }
  return errors;
}

/** The reply headers that travel back with a forwarded write: what a client acts on, nothing of the hop. */
export const REPLY_HEADERS = ['retry-after', 'location', 'cache-control'] as const;

/** The REPLY_HEADERS among `raw` (a reply's headers), as strings. */
export function replyHeadersOf(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!raw || typeof raw !== 'object') return headers;
  for (const name of REPLY_HEADERS) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
  }
  return headers;
}

function repliesOf(raw: unknown): Record<string, ForwardedReply> {
  const replies: Record<string, ForwardedReply> = {};
  if (!Array.isArray(raw)) return replies;
  for (const r of raw as Record<string, unknown>[]) {
    if (!r || typeof r.id !== 'string' || !Number.isInteger(r.status) || typeof r.body !== 'string') continue;
    replies[r.id] = {
      status: r.status as number,
      content_type: typeof r.content_type === 'string' ? r.content_type : 'application/json; charset=utf-8',
      headers: replyHeadersOf(r.headers),
      body: r.body,
      position: Number.isInteger(r.position) ? (r.position as number) : 0,
    };
  }
  return replies;
}
