import { UPGRADE_CHALLENGE_TTL_MS, UpgradeChallenges } from './upgrade-challenges';

describe('upgrade challenges', () => {
  let now = 0;
  const challenges = () => new UpgradeChallenges(() => now);
  beforeEach(() => (now = 1_000_000));

  it('given a challenge just issued, then it is 32 bytes of hex and valid once', () => {
    const c = challenges();
    const { challenge } = c.issue();
    expect(challenge).toMatch(/^[0-9a-f]{64}$/);
    expect(c.consume(challenge)).toBe('valid');
    expect(c.consume(challenge)).toBe('unknown');
  });

  it('given 60 s gone by, then the challenge is still valid; a millisecond later it has expired', () => {
    const c = challenges();
    const first = c.issue().challenge;
    const second = c.issue().challenge;
    now += UPGRADE_CHALLENGE_TTL_MS;
    expect(c.consume(first)).toBe('valid');
    now += 1;
    expect(c.consume(second)).toBe('expired');
  });

  it('given a challenge never issued, then it is unknown', () => expect(challenges().consume('f'.repeat(64))).toBe('unknown'));
});
