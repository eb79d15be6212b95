/**
 * One-time upgrade challenges (social-routes §18, GET
 * /hierarchy/upgrade-challenge, POST /hierarchy/verify-upgrade): a 32-byte
 * random nonce (hex), valid 60 s, consumed by its first verification
 * whatever the outcome. Kept in this process's memory, not in the log: an
 * open GET must not let anyone write events, and a challenge outlives no
 * restart (a lost one is asked for again). At most MAX_OUTSTANDING are kept;
 * beyond that the oldest is dropped.
 */
import { randomBytes } from 'node:crypto';

export const UPGRADE_CHALLENGE_TTL_MS = 60_000;
export const MAX_OUTSTANDING = 1000;

export type ChallengeCheck = 'valid' | 'unknown' | 'expired';

export class UpgradeChallenges {
  /** challenge → expiry (ms), in issue order */
  private readonly open = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => string = () => randomBytes(32).toString('hex'),
  ) {}

  issue(): { challenge: string; expires_at: string } {
    this.prune();
    while (this.open.size >= MAX_OUTSTANDING) this.open.delete(this.open.keys().next().value as string);
    const challenge = this.random();
    const expires = this.now() + UPGRADE_CHALLENGE_TTL_MS;
    this.open.set(challenge, expires);
    return { challenge, expires_at: new Date(expires).toISOString() };
  }

  /** Uses the challenge up: a second call with it is `unknown`. */
  consume(challenge: string): ChallengeCheck {
    const expires = this.open.get(challenge);
    if (expires === undefined) return 'unknown';
    this.open.delete(challenge);
    return this.now() > expires ? 'expired' : 'valid';
  }

  private prune(): void {
    const now = this.now();
    for (const [challenge, expires] of this.open) if (now > expires) this.open.delete(challenge);
  }
}
