/**
 * Concurrency of the encounter flow: mutual likes at the same instant, many
 * repeated mutual likes of one pair, concurrent toggles and concurrent claims
 * of one key. Every invariant lives in one stream, so races end as revision
 * conflicts that are retried, never as duplicates.
 */
import { startTestApp, type TestApp } from '../support/app';
import {
  discoverableUser,
  type EncounterUser,
  get,
  newUser,
  post,
  randomKey,
  sight,
  swipe,
} from '../support/encounter';

jest.setTimeout(180_000);

async function inBatches<T, R>(items: T[], size: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size) results.push(...(await Promise.all(items.slice(i, i + size).map(run))));
  return results;
}

describe('encounter races', () => {
  let t: TestApp;

  beforeAll(async () => {
    // 400 users at once from one test client: one address, so no cap per address (HTTP_MAX_CONNECTIONS_PER_IP)
    t = await startTestApp({ HTTP_MAX_CONNECTIONS_PER_IP: '0' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('given 200 pairs who sighted each other, when all 400 likes arrive at once, then 200 matches, one per pair, no 5xx', async () => {
    const PAIRS = 200;
    const users = await inBatches(Array.from({ length: PAIRS * 2 }), 16, () => discoverableUser(t));
    const pairs = Array.from({ length: PAIRS }, (_, i) => [users[2 * i], users[2 * i + 1]] as const);
    const sightings = await inBatches(pairs, 16, async ([a, b]) => [await sight(t, a, b), await sight(t, b, a)] as const);

    const likes = await Promise.all(
      pairs.flatMap(([a, b], i) => [swipe(t, a, sightings[i][0]), swipe(t, b, sightings[i][1])]),
    );

    expect(likes.filter((r) => r.status !== 200)).toEqual([]);
    for (let i = 0; i < PAIRS; i++) {
      const ids = [likes[2 * i].body.data.match_id, likes[2 * i + 1].body.data.match_id].filter((id) => id !== null);
      expect(ids).toHaveLength(1);
    }
    const views = await inBatches(users, 32, async (u) => (await get(t, u, '/matches')).body.data);
    expect(views.every((v) => v.count === 1)).toBe(true);
    const matchIds = new Set(views.map((v) => v.matches[0].id));
    expect(matchIds.size).toBe(PAIRS);
  });

  it('given one pair with 10 sightings each way, when all 20 likes arrive at once, then every binding names the same row', async () => {
    const a = await discoverableUser(t);
    const b = await discoverableUser(t);
    const ofA = await Promise.all(Array.from({ length: 10 }, () => sight(t, a, b)));
    const ofB = await Promise.all(Array.from({ length: 10 }, () => sight(t, b, a)));
    const likes = await Promise.all([...ofA.map((id) => swipe(t, a, id)), ...ofB.map((id) => swipe(t, b, id))]);
    expect(likes.every((r) => r.status === 200)).toBe(true);
    const bound = new Set(likes.map((r) => r.body.data.match_id).filter((id) => id !== null));
    expect(bound.size).toBe(1);
    const { matches, count } = (await get(t, a, '/matches')).body.data;
    expect(count).toBe(1);
    expect(matches[0].id).toBe([...bound][0]);
  });

  it('given one user, when 20 toggles arrive at once, then exactly 6 pass and 14 get 429', async () => {
    const user = await newUser(t);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(t, user, '/discoverable', { enabled: i % 2 === 0, age_claim_18: true })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(6);
    expect(results.filter((r) => r.status === 429)).toHaveLength(14);
    expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(6);
  });

  it('given two users, when both register the same key at once, then exactly one owns it', async () => {
    const key = randomKey();
    const contenders: EncounterUser[] = await Promise.all([newUser(t), newUser(t)]);
    const results = await Promise.all(contenders.map((u) => post(t, u, '/register-pubkey', { pubkey: key })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('given one sighting, when liked and disliked at once, then exactly one swipe counts and the other is 409', async () => {
    const peer = await discoverableUser(t);
    const owner = await newUser(t);
    const id = await sight(t, owner, peer);
    const results = await Promise.all([swipe(t, owner, id, 'like'), swipe(t, owner, id, 'dislike'), swipe(t, owner, id, 'like')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});
