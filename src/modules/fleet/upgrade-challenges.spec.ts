import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { MAX_OUTSTANDING, UPGRADE_CHALLENGE_TTL_MS, UPGRADE_CHALLENGES, UpgradeChallenges } from './upgrade-challenges';

describe('upgrade challenges', () => {
  let now = 0;
  let store: EmbeddedReadStore;
  const challenges = () => new UpgradeChallenges(store, () => now);
  beforeEach(() => {
    now = 1_000_000;
    store = new EmbeddedReadStore({ file: null });
  });
  afterEach(() => store.close());

  it('given a challenge just issued, then it is 32 bytes of hex and valid once', async () => {
    const c = challenges();
    const { challenge } = await c.issue();
    expect(challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(await c.consume(challenge)).toBe('valid');
    expect(await c.consume(challenge)).toBe('unknown');
  });

  it('given a challenge issued by one instance, when another sharing the read store verifies it, then it is valid there once', async () => {
    const { challenge } = await challenges().issue();

    const [first, second] = await Promise.all([challenges().consume(challenge), challenges().consume(challenge)]);

    expect([first, second].sort()).toEqual(['unknown', 'valid']);
  });

  it('given 60 s gone by, then the challenge is still valid; a millisecond later it has expired', async () => {
    const c = challenges();
    const first = (await c.issue()).challenge;
    const second = (await c.issue()).challenge;
    now += UPGRADE_CHALLENGE_TTL_MS;
    expect(await c.consume(first)).toBe('valid');
    now += 1;
    expect(await c.consume(second)).toBe('expired');
  });

  it('given a challenge never issued, then it is unknown', async () => expect(await challenges().consume('f'.repeat(64))).toBe('unknown'));

  it('given the most outstanding challenges, when one more is issued, then the oldest goes and the count stays at the bound', async () => {
    let n = 0;
    const c = new UpgradeChallenges(store, () => now, () => String(n++).padStart(64, '0'));
    for (let i = 0; i < MAX_OUTSTANDING; i++) {
      now += 1;
      await c.issue();
    }

    await c.issue();

    expect(await store.collection(UPGRADE_CHALLENGES).countDocuments({})).toBe(MAX_OUTSTANDING);
    expect(await c.consume('0'.padStart(64, '0'))).toBe('unknown');
  });
});
