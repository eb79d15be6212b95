/**
 * One-time upgrade challenges (social-routes §18, GET
 * /hierarchy/upgrade-challenge, POST /hierarchy/verify-upgrade): a 32-byte
 * random nonce (hex), valid 60 s, consumed by its first verification
 * whatever the outcome.
 *
 * Kept in the read store (`upgrade_challenges`, one document per challenge),
 * not in the log: an open GET must not let anyone write events. With a
 * MongoDB read store every instance of the service shares them, so a
 * challenge issued by one instance is verified by another behind the same
 * balancer; consuming is a delete, which one caller wins. Bounded: expired
 * challenges are swept at every issue, and at most MAX_OUTSTANDING are kept
 * (beyond that the oldest go).
 */
import { randomBytes } from 'node:crypto';
import type { ReadStore } from '../../infrastructure/read-store/read-store.port';

export const UPGRADE_CHALLENGE_TTL_MS = 60_000;
export const MAX_OUTSTANDING = 1000;
export const UPGRADE_CHALLENGES = 'upgrade_challenges';

export type ChallengeCheck = 'valid' | 'unknown' | 'expired';

type ChallengeDoc = { _id: string; expires_at_ms: number };

export class UpgradeChallenges {
  constructor(
    private readonly readStore: ReadStore,
    private readonly now: () => number = Date.now,
    private readonly random: () => string = () => randomBytes(32).toString('hex'),
  ) {}

  async issue(): Promise<{ challenge: string; expires_at: string }> {
    const challenges = this.readStore.collection<ChallengeDoc>(UPGRADE_CHALLENGES);
    await challenges.deleteMany({ expires_at_ms: { $lt: this.now() } });
    const outstanding = await challenges.countDocuments({});
    if (outstanding >= MAX_OUTSTANDING) {
      const oldest = await challenges.find({}, { sort: { expires_at_ms: 1 }, limit: outstanding - MAX_OUTSTANDING + 1, projection: { _id: 1 } });
      await challenges.deleteMany({ _id: { $in: oldest.map((doc) => doc._id) } });
    }
    const challenge = this.random();
    const expires = this.now() + UPGRADE_CHALLENGE_TTL_MS;
    await challenges.insertOne({ _id: challenge, expires_at_ms: expires });
    return { challenge, expires_at: new Date(expires).toISOString() };
  }

  /** Uses the challenge up: a second call with it, here or at another instance, is `unknown`. */
  async consume(challenge: string): Promise<ChallengeCheck> {
    const challenges = this.readStore.collection<ChallengeDoc>(UPGRADE_CHALLENGES);
    const found = await challenges.findOne({ _id: challenge });
    if (!found) return 'unknown';
    const { deletedCount } = await challenges.deleteOne({ _id: challenge });
    if (deletedCount !== 1) return 'unknown';
    return this.now() > found.expires_at_ms ? 'expired' : 'valid';
  }
}
