/**
 * Idempotent document updates for projections. Each document remembers the
 * global position of the last event applied to it (`_pos`); an update for an
 * event at or before that position matches nothing, and its upsert then
 * clashes on `_id` (MongoDB's E11000), which means "already applied".
 * So a replay or a redelivered event never double-counts, without transactions.
 */
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import { type Collection, DuplicateKeyError, type Update } from '../../infrastructure/read-store/read-store.port';

export async function applyOnce(
  collection: Collection,
  id: string,
  event: Pick<RecordedEvent, 'position'>,
  update: Update,
  options: { upsert?: boolean } = { upsert: true },
): Promise<void> {
  const set = (update.$set as Record<string, unknown> | undefined) ?? {};
  const guarded: Update = { ...update, $set: { ...set, _pos: event.position } };
  try {
    await collection.updateOne({ _id: id, _pos: { $not: { $gte: event.position } } }, guarded, {
      upsert: options.upsert ?? true,
    });
  } catch (error) {
    if (error instanceof DuplicateKeyError && '_id' in error.key) return;
    throw error;
  }
}
