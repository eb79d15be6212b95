/**
 * The encounter flow over HTTP (SPEC §4.7 rules 1–11, §7 error table, §3
 * transitions), on the app's injected clock so that expiry and windows are
 * tested without waiting.
 */
import { Clock } from '../../src/infrastructure/clock';
import { EncounterInboxSweeper } from '../../src/sagas/encounter-inbox.sweeper';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { startTestApp, type TestApp } from '../support/app';
import {
  discoverableUser,
  enable,
  ENC,
  type EncounterUser,
  get,
  mutualLike,
  newUser,
  post,
  randomKey,
  registerKey,
  sight,
  swipe,
} from '../support/encounter';

jest.setTimeout(60_000);

const HOUR = 3600_000;

describe('encounter over HTTP', () => {
  let t: TestApp;
  let offsetMs = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const clock = t.app.get(Clock);
    jest.spyOn(clock, 'now').mockImplementation(() => new Date(Date.now() + offsetMs));
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    offsetMs = 0;
  });

  describe('authentication (SPEC §5.2)', () => {
    const routes: [string, string][] = [
      ['POST', '/discoverable'],
      ['GET', '/discoverable'],
      ['POST', '/sighting'],
      ['POST', '/swipe'],
      ['GET', '/matches'],
      ['GET', '/map-pins'],
      ['POST', '/icebreaker/draft'],
      ['POST', '/icebreaker/approve'],
      ['POST', '/icebreaker/decline'],
      ['POST', '/register-pubkey'],
      ['GET', '/topics'],
    ];

    it.each(routes)('given no credential, when %s %s, then 401 unauthenticated', async (method, path) => {
      const res = await t.request(method, `${ENC}${path}`, method === 'POST' ? { body: {} } : {});
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'unauthenticated' });
    });

    it('given a forged token, when a route is called, then 401 unauthenticated as well', async () => {
      const res = await t.request('GET', `${ENC}/matches`, { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'unauthenticated' });
    });

    it('given a user, when the /social/encounter alias is called, then it answers like /api/social/encounter', async () => {
      const user = await newUser(t);
      const res = await t.request('GET', '/social/encounter/topics', { token: user.token });
      expect(res.status).toBe(200);
    });
  });

  describe('GET topics', () => {
    it('returns the four topic names', async () => {
      const res = await get(t, await newUser(t), '/topics');
      expect(res.body).toEqual({
        success: true,
        data: {
          topics: {
            sighting: 'com.svc.encounter.sighting',
            swipe: 'com.svc.encounter.swipe',
            match: 'com.svc.encounter.match',
            icebreaker: 'com.svc.encounter.icebreaker',
          },
        },
      });
    });
  });

  describe('discoverable', () => {
    it('given no stored preference, when read, then the defaults', async () => {
      const res = await get(t, await newUser(t), '/discoverable');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          enabled: false,
          expires_at: null,
          remaining_sec: 0,
          toggle_count_24h: 0,
          age_claim_18: false,
          face_visible: false,
          avatar_style: 'studio_ghibli',
          vibe_tags: [],
        },
      });
    });

    it('given an adult claim, when enabled, then on for the TTL (14400 s by default)', async () => {
      const user = await newUser(t);
      const before = Date.now();
      const res = await enable(t, user);
      expect(res.status).toBe(200);
      expect(res.body.data.enabled).toBe(true);
      expect(res.body.data.remaining_sec).toBeGreaterThanOrEqual(14399);
      expect(res.body.data.remaining_sec).toBeLessThanOrEqual(14400);
      const expires = Date.parse(res.body.data.expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + 14400_000 - 1000);
      expect(Object.keys(res.body.data).sort()).toEqual(['enabled', 'expires_at', 'remaining_sec']);
    });

    it.each([
      [60, 60],
      [0, 14400],
      [-5, 14400],
      [999_999, 14400],
    ])('given ttl_sec %p, when enabled, then remaining_sec is %p', async (ttl, expected) => {
      const res = await enable(t, await newUser(t), { ttl_sec: ttl });
      expect(res.body.data.remaining_sec).toBeGreaterThanOrEqual(expected - 1);
      expect(res.body.data.remaining_sec).toBeLessThanOrEqual(expected);
    });

    it('given no adult claim, when enabling, then 403 with the contract text', async () => {
      const res = await post(t, await newUser(t), '/discoverable', { enabled: true });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: false, error: 'age_claim_18 must be true to enable discoverable' });
    });

    it('given vibe_tags that is not a list, when posted, then 400 with the contract text', async () => {
      const res = await post(t, await newUser(t), '/discoverable', { enabled: false, vibe_tags: 'hiking' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'vibe_tags must be a list of strings' });
    });

    it('given the strings "true"/"false" as flags, when posted, then they read as booleans', async () => {
      const user = await newUser(t);
      const res = await post(t, user, '/discoverable', { enabled: 'true', age_claim_18: 'true', face_visible: 'false' });
      expect(res.status).toBe(200);
      expect(res.body.data.enabled).toBe(true);
    });

    it.each([['yes'], [1], ['TRUE ']])('given the flag value %p, when posted, then 400', async (value) => {
      const res = await post(t, await newUser(t), '/discoverable', { enabled: value, age_claim_18: true });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    });

    it('given a body that is not a JSON object, when posted, then 400 and nothing stored', async () => {
      const user = await newUser(t);
      const res = await t.request('POST', `${ENC}/discoverable`, { rawBody: '[true]', token: user.token });
      expect(res.status).toBe(400);
      expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(0);
    });

    it('given long tags and style, when posted, then at most 10 tags of 40 chars and a style of 64 chars', async () => {
      const user = await newUser(t);
      const tags = Array.from({ length: 12 }, (_, i) => `${i}`.padEnd(50, 'x'));
      await enable(t, user, { vibe_tags: tags, avatar_style: 's'.repeat(100), face_visible: true });
      const view = (await get(t, user, '/discoverable')).body.data;
      expect(view.vibe_tags).toHaveLength(10);
      expect(view.vibe_tags.every((tag: string) => tag.length === 40)).toBe(true);
      expect(view.avatar_style).toHaveLength(64);
      expect(view.face_visible).toBe(true);
      expect(view.age_claim_18).toBe(true);
    });

    it('given an enabled user, when disabled, then off with expires_at null', async () => {
      const user = await newUser(t);
      await enable(t, user);
      const res = await post(t, user, '/discoverable', { enabled: false });
      expect(res.body.data).toEqual({ enabled: false, expires_at: null, remaining_sec: 0 });
      expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(2);
    });

    it('given an enabled user, when the TTL passed, then it reads as not enabled with remaining 0', async () => {
      const user = await newUser(t);
      await enable(t, user, { ttl_sec: 60 });
      offsetMs = 61_000;
      const view = (await get(t, user, '/discoverable')).body.data;
      expect(view.enabled).toBe(false);
      expect(view.remaining_sec).toBe(0);
    });

    describe('toggle limit (rule 8)', () => {
      it('given 6 toggles in 24 h, when toggling again, then 429 naming the limit', async () => {
        const user = await newUser(t);
        for (let i = 0; i < 6; i++) {
          const res = await post(t, user, '/discoverable', { enabled: i % 2 === 0, age_claim_18: true });
          expect(res.status).toBe(200);
        }
        const res = await post(t, user, '/discoverable', { enabled: false });
        expect(res.status).toBe(429);
        expect(res.body).toEqual({ success: false, error: 'toggle limit reached (6 per 24h)' });
        expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(6);
      });

      it('given the limit reached, when enabling without an adult claim, then 429 (the limit check runs first)', async () => {
        const user = await newUser(t);
        for (let i = 0; i < 6; i++) await post(t, user, '/discoverable', { enabled: false });
        const res = await post(t, user, '/discoverable', { enabled: true });
        expect(res.status).toBe(429);
      });

      it('given a refused enable (403), when counting, then it used no toggle', async () => {
        const user = await newUser(t);
        await post(t, user, '/discoverable', { enabled: true });
        expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(0);
      });

      it('given the limit reached, when more than 24 h passed since the window start, then the window restarts', async () => {
        const user = await newUser(t);
        for (let i = 0; i < 6; i++) await post(t, user, '/discoverable', { enabled: false });
        offsetMs = 24 * HOUR - 60_000;
        expect((await post(t, user, '/discoverable', { enabled: false })).status).toBe(429);
        offsetMs = 24 * HOUR + 1000;
        expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(0);
        const res = await post(t, user, '/discoverable', { enabled: false });
        expect(res.status).toBe(200);
        expect((await get(t, user, '/discoverable')).body.data.toggle_count_24h).toBe(1);
      });
    });
  });

  describe('register-pubkey (rule 10)', () => {
    it.each([['abc'], ['z'.repeat(32)], ['a'.repeat(129)], [12345], [null]])('given pubkey %p, when registered, then 400', async (pubkey) => {
      const res = await post(t, await newUser(t), '/register-pubkey', { pubkey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'pubkey hex 16..128 chars' });
    });

    it('given an upper-case hex key, when registered, then registered_at in epoch seconds', async () => {
      const before = Math.floor(Date.now() / 1000);
      const res = await post(t, await newUser(t), '/register-pubkey', { pubkey: randomKey().toUpperCase() });
      expect(res.status).toBe(200);
      expect(res.body.data.registered_at).toBeGreaterThanOrEqual(before);
      expect(res.body.data.registered_at).toBeLessThanOrEqual(before + 5);
    });

    it("given another user's key, when registered, then 409 (a key belongs to one user)", async () => {
      const owner = await newUser(t);
      const key = await registerKey(t, owner);
      const res = await post(t, await newUser(t), '/register-pubkey', { pubkey: key });
      expect(res.status).toBe(409);
      expect(res.body.error).toBe('pubkey already registered');
    });
  });

  describe('sighting', () => {
    it.each([[undefined], ['abc'], [42]])('given peer_pubkey %p, when posted, then 400 with the contract text', async (peer_pubkey) => {
      const res = await post(t, await newUser(t), '/sighting', { peer_pubkey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'peer_pubkey required (hex, >=16 chars)' });
    });

    it('given an unknown key, a peer that is off and a peer that expired, then the same 404', async () => {
      const caller = await newUser(t);
      const off = await newUser(t);
      await registerKey(t, off);
      const expiring = await discoverableUser(t, { ttl_sec: 60 });
      const unknown = await post(t, caller, '/sighting', { peer_pubkey: randomKey() });
      const notEnabled = await post(t, caller, '/sighting', { peer_pubkey: off.pubkey });
      offsetMs = 61_000;
      const expired = await post(t, caller, '/sighting', { peer_pubkey: expiring.pubkey });
      for (const res of [unknown, notEnabled, expired]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: 'peer not discoverable' });
      }
    });

    it("given the caller's own key, when sighted, then 400 self-sighting rejected", async () => {
      const user = await discoverableUser(t);
      const res = await post(t, user, '/sighting', { peer_pubkey: user.pubkey });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'self-sighting rejected' });
    });

    it("given a discoverable peer, when sighted, then the peer's card with an anonymous id and the sighting expiry", async () => {
      const peer = await discoverableUser(t, { vibe_tags: ['hiking', 'jazz'], avatar_style: 'pixel', face_visible: true });
      const before = Date.now();
      const res = await post(t, await newUser(t), '/sighting', { peer_pubkey: peer.pubkey.toUpperCase(), rssi_peak: -50 });
      expect(res.status).toBe(200);
      const card = res.body.data;
      expect(card.sighting_id).toMatch(/^sight_/);
      expect(card.peer_anon_id).toBe(peer.pubkey.slice(0, 12));
      expect(card).toMatchObject({ avatar_style: 'pixel', vibe_tags: ['hiking', 'jazz'], face_visible: true });
      expect(Date.parse(card.expires_at)).toBeGreaterThanOrEqual(before + 86400_000 - 1000);
      expect(JSON.stringify(card)).not.toContain(peer.id);
    });

    it('given a peer who rotated its key, then the old key no longer resolves and the new one does (rule 6)', async () => {
      const peer = await discoverableUser(t);
      const old = peer.pubkey;
      await registerKey(t, peer);
      const caller = await newUser(t);
      expect((await post(t, caller, '/sighting', { peer_pubkey: old })).status).toBe(404);
      expect((await post(t, caller, '/sighting', { peer_pubkey: peer.pubkey })).status).toBe(200);
    });

    it('given a key registered a moment ago, when sighted at once, then it resolves (every time)', async () => {
      const peer = await discoverableUser(t);
      const caller = await newUser(t);
      for (let i = 0; i < 10; i++) {
        const key = await registerKey(t, peer);
        const res = await post(t, caller, '/sighting', { peer_pubkey: key });
        expect(res.status).toBe(200);
      }
    });
  });

  describe('swipe', () => {
    it('given no sighting_id, then 400 sighting_id required', async () => {
      const res = await post(t, await newUser(t), '/swipe', { decision: 'like' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ success: false, error: 'sighting_id required' });
    });

    it('given a decision other than like/dislike, then 400', async () => {
      const res = await post(t, await newUser(t), '/swipe', { sighting_id: 'sight_x', decision: 'maybe' });
      expect(res.status).toBe(400);
    });

    it("given an unknown sighting or someone else's, then 404 sighting not found", async () => {
      const peer = await discoverableUser(t);
      const owner = await newUser(t);
      const id = await sight(t, owner, peer);
      for (const res of [await swipe(t, owner, 'sight_doesnotexist'), await swipe(t, await newUser(t), id)]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: 'sighting not found' });
      }
    });

    it('given a sighting older than its lifetime, then 410 sighting expired', async () => {
      const peer = await discoverableUser(t);
      const owner = await newUser(t);
      const id = await sight(t, owner, peer);
      offsetMs = 86400_000 + 1000;
      const res = await swipe(t, owner, id);
      expect(res.status).toBe(410);
      expect(res.body).toEqual({ success: false, error: 'sighting expired' });
    });

    it('given a swiped sighting, when swiped again, then 409 already swiped', async () => {
      const peer = await discoverableUser(t);
      const owner = await newUser(t);
      const id = await sight(t, owner, peer);
      expect((await swipe(t, owner, id, 'DisLike')).status).toBe(200);
      const res = await swipe(t, owner, id, 'like');
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, error: 'already swiped' });
    });

    it('given a one-sided like, then the reply has the same shape as a match and the liked user learns nothing (rules 1, 4)', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const res = await swipe(t, a, await sight(t, a, b));
      expect(res.body).toEqual({ success: true, data: { sighting_id: expect.any(String), decision: 'like', match_id: null } });
      for (const user of [a, b]) {
        expect((await get(t, user, '/matches')).body.data).toEqual({ matches: [], count: 0 });
        expect((await get(t, user, '/map-pins')).body.data).toEqual({ pins: [], count: 0 });
      }
      const inbox = await t.app.get<ReadStore>(READ_STORE).collection('encounter_inbox').find({ user_id: b.id });
      expect(inbox).toEqual([]);
    });

    it('given a mutual like, then one match both users see, sides sorted, icebreakers pending (rule 2)', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const sa = await sight(t, a, b);
      const sb = await sight(t, b, a);
      const first = await swipe(t, a, sa);
      const second = await swipe(t, b, sb);
      expect(first.body.data.match_id).toBeNull();
      expect(second.body.data.match_id).toMatch(/^match_/);
      expect(Object.keys(first.body.data).sort()).toEqual(Object.keys(second.body.data).sort());
      const [userA, userB] = [a.id, b.id].sort();
      for (const user of [a, b]) {
        const { matches, count } = (await get(t, user, '/matches')).body.data;
        expect(count).toBe(1);
        expect(matches[0]).toEqual({
          id: second.body.data.match_id,
          user_a: userA,
          user_b: userB,
          lat: null,
          lng: null,
          matched_at: expect.any(Number),
          icebreaker_a_status: 'pending',
          icebreaker_b_status: 'pending',
          map_pin_visible: true,
        });
      }
      expect((await get(t, await newUser(t), '/matches')).body.data.count).toBe(0);
    });

    it('given a reciprocal dislike, when liking, then no match and nothing reveals the dislike (rule 4)', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const sb = await sight(t, b, a);
      await swipe(t, b, sb, 'dislike');
      const res = await swipe(t, a, await sight(t, a, b));
      expect(res.body).toEqual({ success: true, data: { sighting_id: expect.any(String), decision: 'like', match_id: null } });
    });

    it('given sightings further apart than the match window, when both like, then no match', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const sa = await sight(t, a, b);
      offsetMs = 301_000;
      const sb = await sight(t, b, a);
      await swipe(t, a, sa);
      expect((await swipe(t, b, sb)).body.data.match_id).toBeNull();
    });

    it('given sightings inside the window the other way round, when both like, then a match', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const sa = await sight(t, a, b);
      offsetMs = 299_000;
      const sb = await sight(t, b, a);
      await swipe(t, b, sb);
      expect((await swipe(t, a, sa)).body.data.match_id).toMatch(/^match_/);
    });

    it('given a second mutual like of the same pair, then the same match row is re-bound (rule 3)', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const first = await mutualLike(t, a, b);
      const again = await mutualLike(t, a, b);
      expect(again).toBe(first);
      expect((await get(t, a, '/matches')).body.data.count).toBe(1);
    });

    it('given both sightings with coordinates, then the match sits at their midpoint and has a pin (rule 5)', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const id = await mutualLike(t, a, b, { a: { lat: 52.0, lng: 13.0 }, b: { lat: 52.002, lng: 13.004 } });
      const match = (await get(t, a, '/matches')).body.data.matches[0];
      expect(match.lat).toBeCloseTo(52.001, 6);
      expect(match.lng).toBeCloseTo(13.002, 6);
      expect((await get(t, b, '/map-pins')).body.data).toEqual({
        pins: [{ match_id: id, lat: match.lat, lng: match.lng, matched_at: match.matched_at }],
        count: 1,
      });
    });

    it('given only one sighting with coordinates, then no coordinates and no pin', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      await mutualLike(t, a, b, { a: { lat: 52, lng: 13 } });
      expect((await get(t, a, '/matches')).body.data.matches[0]).toMatchObject({ lat: null, lng: null });
      expect((await get(t, a, '/map-pins')).body.data.count).toBe(0);
    });

    it('given inbox messages older than the retention (7 days), when the sweep runs, then they are gone and newer ones stay', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      await mutualLike(t, a, b);
      const inbox = t.app.get<ReadStore>(READ_STORE).collection('encounter_inbox');
      expect((await inbox.find({ user_id: b.id })).length).toBeGreaterThan(0);
      offsetMs = 6 * 24 * HOUR;
      await t.app.get(EncounterInboxSweeper).sweep();
      expect((await inbox.find({ user_id: b.id })).length).toBeGreaterThan(0);
      offsetMs = 7 * 24 * HOUR + 60_000;
      await t.app.get(EncounterInboxSweeper).sweep();
      expect(await inbox.find({ user_id: b.id })).toEqual([]);
    });

    it('given several matches, then GET matches lists them latest first', async () => {
      const a = await discoverableUser(t);
      const b = await discoverableUser(t);
      const c = await discoverableUser(t);
      const older = await mutualLike(t, a, b);
      offsetMs = 1000;
      const newer = await mutualLike(t, a, c);
      expect((await get(t, a, '/matches')).body.data.matches.map((m: { id: string }) => m.id)).toEqual([newer, older]);
    });
  });

  describe('icebreaker', () => {
    let a: EncounterUser;
    let b: EncounterUser;
    let matchId: string;
    let sideOfA: 'a' | 'b';

    beforeEach(async () => {
      a = await discoverableUser(t, { vibe_tags: ['Hiking', 'jazz'] });
      b = await discoverableUser(t, { vibe_tags: ['hiking'] });
      matchId = await mutualLike(t, a, b);
      sideOfA = a.id < b.id ? 'a' : 'b';
    });

    it('given no match_id, then 400 match_id required on draft, approve and decline', async () => {
      for (const path of ['/icebreaker/draft', '/icebreaker/approve', '/icebreaker/decline']) {
        const res = await post(t, a, path, { text: 'hi' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: 'match_id required' });
      }
    });

    it('given a match, when drafting, then a draft from the shared tag with two alternatives within the limit', async () => {
      const res = await post(t, a, '/icebreaker/draft', { match_id: matchId });
      expect(res.status).toBe(200);
      const d = res.body.data;
      expect(d).toEqual({
        draft: expect.any(String),
        rationale: expect.any(String),
        alt_drafts: [expect.any(String), expect.any(String)],
        length: [...d.draft].length,
        shared_tag: 'Hiking',
        source: 'template',
      });
      for (const text of [d.draft, ...d.alt_drafts]) expect([...text].length).toBeLessThanOrEqual(220);
    });

    it('given an unknown match or a non-participant, when drafting, then 404', async () => {
      expect((await post(t, a, '/icebreaker/draft', { match_id: 'match_nope' })).status).toBe(404);
      expect((await post(t, await newUser(t), '/icebreaker/draft', { match_id: matchId })).status).toBe(404);
    });

    it('given no text, blank text or text over 220 chars, when approving, then 400 / 413 with the contract texts', async () => {
      for (const text of [undefined, '   ']) {
        const res = await post(t, a, '/icebreaker/approve', { match_id: matchId, text });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ success: false, error: 'text required' });
      }
      const long = await post(t, a, '/icebreaker/approve', { match_id: matchId, text: 'x'.repeat(221) });
      expect(long.status).toBe(413);
      expect(long.body).toEqual({ success: false, error: 'text exceeds 220 chars' });
      expect((await post(t, a, '/icebreaker/approve', { match_id: matchId, text: `  ${'y'.repeat(220)}  ` })).status).toBe(200);
    });

    it('given an unknown match or a non-participant, when approving or declining, then 404 match not found', async () => {
      const stranger = await newUser(t);
      for (const res of [
        await post(t, a, '/icebreaker/approve', { match_id: 'match_nope', text: 'hi' }),
        await post(t, stranger, '/icebreaker/approve', { match_id: matchId, text: 'hi' }),
        await post(t, a, '/icebreaker/decline', { match_id: 'match_nope' }),
        await post(t, stranger, '/icebreaker/decline', { match_id: matchId }),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ success: false, error: 'match not found' });
      }
    });

    it("given a pending side, when approved, then sent on the caller's side only, and a second approve is 409", async () => {
      const res = await post(t, a, '/icebreaker/approve', { match_id: matchId, text: ' Hi there! ' });
      expect(res.body).toEqual({ success: true, data: { match_id: matchId, status: 'sent' } });
      const view = (await get(t, b, '/matches')).body.data.matches[0];
      expect(view[`icebreaker_${sideOfA}_status`]).toBe('sent');
      expect(view[`icebreaker_${sideOfA === 'a' ? 'b' : 'a'}_status`]).toBe('pending');
      const again = await post(t, a, '/icebreaker/approve', { match_id: matchId, text: 'again' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ success: false, error: 'icebreaker already sent' });
    });

    it('given a sent side, when declined, then declined (not blocked), and approve after that is 409 already declined', async () => {
      await post(t, a, '/icebreaker/approve', { match_id: matchId, text: 'Hi' });
      const res = await post(t, a, '/icebreaker/decline', { match_id: matchId, reason: 'changed my mind' });
      expect(res.body).toEqual({ success: true, data: { match_id: matchId, status: 'declined' } });
      const again = await post(t, a, '/icebreaker/approve', { match_id: matchId, text: 'Hi' });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ success: false, error: 'icebreaker already declined' });
    });

    it('given a reason over 400 chars, when declining, then it is stored cut to 400', async () => {
      await post(t, b, '/icebreaker/decline', { match_id: matchId, reason: 'r'.repeat(450) });
      const row = await t.app.get<ReadStore>(READ_STORE).collection<any>('encounter_matches').findOne({ _id: matchId });
      const side = sideOfA === 'a' ? 'icebreaker_b' : 'icebreaker_a';
      expect(row.payload[side]).toMatchObject({ status: 'declined', decline_reason: 'r'.repeat(400) });
    });
  });

  describe('consent routes (SPEC §4.4)', () => {
    it('given a user, when reading their consent, then false by default', async () => {
      const user = await newUser(t);
      const res = await t.request('GET', `/api/social/users/${user.id}/consent/cloud-data`, { token: user.token });
      expect(res.body).toEqual({ success: true, data: { cloud_data_consent: false, consents: [] } });
    });

    it("given another user's id, when changing consent, then 403", async () => {
      const user = await newUser(t);
      const other = await newUser(t);
      const res = await t.request('PUT', `/api/social/users/${other.id}/consent/cloud-data`, { token: user.token, body: { consent: true } });
      expect(res.status).toBe(403);
    });

    it('given no consent flag, when putting, then 400', async () => {
      const user = await newUser(t);
      const res = await t.request('PUT', `/social/users/${user.id}/consent/cloud-data`, { token: user.token, body: { scope: '*' } });
      expect(res.status).toBe(400);
    });
  });
});
