/**
 * The nonces of signed node requests, in the read store: one document per
 * nonce (`_id` = node id and nonce), so a MongoDB read store shares them
 * between every instance of the service (a request replayed to another
 * instance is refused too); the embedded read store keeps them per process.
 * Bounded: a nonce is deleted once its request's timestamp is out of the
 * window (a sweep at most every `sweepEveryMs`), since a replay that late is
 * refused on its timestamp.
 */
import { DuplicateKeyError, type ReadStore } from '../read-store/read-store.port';
import type { NonceStore } from './signed-request';

export const NONCE_COLLECTION = 'node_request_nonces';

type NonceDoc = {
  _id: string;
  forget_after: number;
};

export class ReadStoreNonceStore implements NonceStore {
  private lastSweep = 0;

  constructor(
    private readonly readStore: ReadStore,
    private readonly clock: () => number = Date.now,
    private readonly sweepEveryMs = 10_000,
  ) {}

  async claim(nodeId: string, nonce: string, forgetAfterMs: number): Promise<boolean> {
    const nonces = this.readStore.collection<NonceDoc>(NONCE_COLLECTION);
    await this.sweep();
    try {
      await nonces.insertOne({ _id: `${nodeId} ${nonce}`, forget_after: forgetAfterMs });
      return true;
    } catch (error) {
      if (error instanceof DuplicateKeyError) return false;
      throw error;
    }
  }

  /** How many nonces are remembered now (tests). */
  count(): Promise<number> {
    return this.readStore.collection<NonceDoc>(NONCE_COLLECTION).countDocuments();
  }

  private async sweep(): Promise<void> {
    const now = this.clock();
    if (now - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = now;
    await this.readStore.collection<NonceDoc>(NONCE_COLLECTION).deleteMany({ forget_after: { $lt: now } });
  }
}
