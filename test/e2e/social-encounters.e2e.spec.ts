/**
 * The durable encounter record over HTTP (social-routes §5, §13): a comment
 * records an encounter between its author and the post's author; the pair's
 * rows, suggestions, bonds, acknowledgement, and concurrent records of one
 * pair counted exactly once each; location pings, proximity matches (one per
 * pair under concurrent pings), and the location settings, whose off switch
 * erases the stored location. Exact coordinates never leave the service. One
 * app for the file.
 */
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

describe('encounters over HTTP', () => {
  let t: TestApp;
  let alice: User;
  let bob: User;
  let carol: User;
  let postId: string;

  const publish = async (user: User): Promise<string> => {
    const res = await t.request('POST', `${P}/posts`, { token: user.token, body: { title: 'Meet here', content: 'Body' } });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const comment = async (user: User, post: string): Promise<void> => {
    const res = await t.request('POST', `${P}/posts/${post}/comments`, { token: user.token, body: { content: 'hi' } });
    expect(res.status).toBe(201);
  };
  const get = async (user: User, path: string) => t.request('GET', `${P}/encounters${path}`, { token: user.token });

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob, carol] = [await signUp(t, { prefix: 'enc' }), await signUp(t, { prefix: 'enc' }), await signUp(t, { prefix: 'enc' })];
    postId = await publish(alice);
    await comment(bob, postId);
    await comment(bob, postId);
    await comment(carol, postId);
    await comment(alice, postId);
    await settled(t);
  });
  afterAll(async () => t?.close());

  it('given no token, when listing encounters, then 401', async () => {
    expect((await t.request('GET', `${P}/encounters`)).status).toBe(401);
  });

  it('given two comments by bob on alice’s post, then alice has one post encounter with bob: count 2, bond 1, the pair sorted', async () => {
    const res = await get(alice, '');
    expect(res.status).toBe(200);
    const withBob = (res.body.data as Array<Record<string, unknown>>).filter((row) => (row.other_user as { id: string }).id === bob.id);
    const [a, b] = [alice.id, bob.id].sort();
    expect(withBob).toEqual([
      expect.objectContaining({ user_a_id: a, user_b_id: b, context_type: 'post', context_id: postId, encounter_count: 2, bond_level: 1, is_mutual_aware: false }),
    ]);
    expect(withBob[0].other_user).toEqual(expect.objectContaining({ id: bob.id, user_type: 'human' }));
    expect(typeof withBob[0].id).toBe('string');
  });

  it('given alice commented on her own post, then she has no encounter with herself', async () => {
    const rows = (await get(alice, '')).body.data as Array<{ user_a_id: string; user_b_id: string }>;
    expect(rows.filter((row) => row.user_a_id === row.user_b_id)).toEqual([]);
    expect(rows).toHaveLength(2);
  });

  it('given a limit of 1, then one encounter, the latest; a non-numeric limit is a 400', async () => {
    const res = await get(alice, '?limit=1');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].other_user.id).toBe(carol.id);
    expect((await get(alice, '?limit=abc')).status).toBe(400);
  });

  it('when reading the encounters with one user, then only that pair’s rows (from either side)', async () => {
    const fromBob = await get(bob, `/${alice.id}`);
    expect(fromBob.status).toBe(200);
    expect(fromBob.body.data).toEqual([expect.objectContaining({ context_id: postId, encounter_count: 2 })]);
    expect((await get(bob, `/${carol.id}`)).body.data).toEqual([]);
  });

  it('suggestions: people met at least twice, with totals; bonds: one entry per person with bond at least 1 (literal segments are not user ids)', async () => {
    const suggestions = await get(alice, '/suggestions');
    expect(suggestions.status).toBe(200);
    expect(suggestions.body.data).toEqual([expect.objectContaining({ user_id: bob.id, total_encounters: 2, shared_contexts: 1, max_bond: 1 })]);
    const bonds = await get(alice, '/bonds');
    expect(bonds.body.data).toEqual([expect.objectContaining({ user_id: bob.id, bond_level: 1, total_encounters: 2 })]);
  });

  it('given a caller without a region, when asking who is nearby, then []', async () => {
    const res = await get(alice, '/nearby');
    expect([res.status, res.body.data]).toEqual([200, []]);
  });

  it('acknowledging: 404 for an unknown id and for someone outside the pair; a participant sets is_mutual_aware', async () => {
    const [row] = (await get(bob, `/${alice.id}`)).body.data as Array<{ id: string }>;
    const outsider = await t.request('POST', `${P}/encounters/${row.id}/acknowledge`, { token: carol.token });
    expect([outsider.status, outsider.body.error]).toEqual([404, 'Encounter not found']);
    const unknown = await t.request('POST', `${P}/encounters/nope/acknowledge`, { token: bob.token });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'Encounter not found']);
    const res = await t.request('POST', `/social/encounters/${row.id}/acknowledge`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: row.id, is_mutual_aware: true, encounter_count: 2 });
    expect((await get(alice, `/${bob.id}`)).body.data[0].is_mutual_aware).toBe(true);
  });

  it('given 10 concurrent comments of one user on one post, then the pair counts exactly 10 (bond 5)', async () => {
    const dave = await signUp(t, { prefix: 'enc' });
    await Promise.all(Array.from({ length: 10 }, () => comment(dave, postId)));
    await settled(t);
    expect((await get(dave, `/${alice.id}`)).body.data).toEqual([expect.objectContaining({ encounter_count: 10, bond_level: 5 })]);
  });

  describe('location pings and proximity matches', () => {
    const here = { lat: 48.137154, lon: 11.576124 };
    const coordinateDigits = ['48.137154', '11.576124', '48.137514', '11.576224', '-33.86882', '151.20929'];
    const ping = (user: User, body: Record<string, unknown>) => t.request('POST', `${P}/encounters/location-ping`, { token: user.token, body });
    const proximityNotices = async (user: User) =>
      ((await t.request('GET', `${P}/notifications`, { token: user.token })).body.data as Array<{ type: string; source_user_id: string | null }>).filter(
        (n) => n.type === 'proximity_match',
      );
    let pia: User;
    let pio: User;

    beforeAll(async () => {
      [pia, pio] = [await signUp(t, { prefix: 'enc' }), await signUp(t, { prefix: 'enc' })];
    });

    it.each([
      [{}, 'lat and lon required'],
      [{ lat: 48.1 }, 'lat and lon required'],
      [{ lat: 'north', lon: 11 }, 'Invalid coordinates'],
      [{ lat: 91, lon: 11 }, 'Coordinates out of range'],
      [{ lat: 48, lon: -180.5 }, 'Coordinates out of range'],
    ])('given %j, when pinging, then 400 with the contract text', async (body, error) => {
      const res = await ping(pia, body);
      expect([res.status, res.body.error]).toEqual([400, error]);
    });

    it('given two users 40 m apart, when both ping, then one proximity match, both told anonymously, and no route shows their coordinates', async () => {
      const first = await ping(pia, here);
      expect([first.status, first.body.data]).toEqual([200, { nearby_count: 0, new_matches: 0, rate_limited: false }]);
      const second = await ping(pio, { lat: 48.137514, lon: 11.576224, accuracy: 8, device_id: 'phone' });
      expect(second.body.data).toEqual({ nearby_count: 1, new_matches: 1, rate_limited: false });
      await settled(t);
      for (const user of [pia, pio]) expect(await proximityNotices(user)).toEqual([expect.objectContaining({ source_user_id: null })]);
      const replies = await Promise.all([
        get(pia, '/nearby-now'),
        get(pia, '/location-settings'),
        get(pio, '/nearby'),
        get(pio, ''),
        t.request('GET', `${P}/notifications`, { token: pio.token }),
        t.request('GET', `${P}/users/${pia.id}`, { token: pio.token }),
      ]);
      expect(replies[0].body.data).toEqual({ nearby_count: 1 });
      const wire = JSON.stringify([first.body, second.body, ...replies.map((r) => r.body)]);
      expect(coordinateDigits.filter((digits) => wire.includes(digits))).toEqual([]);
    });

    it('reveal: outsiders and unknown ids are refused; one side reveals, then the other, then matched with both profiles, a proximity encounter and 10 pulse each', async () => {
      const [pending] = (await get(pia, '/proximity-matches')).body.data as Array<Record<string, unknown>>;
      expect(pending).toEqual({
        id: expect.any(String),
        status: 'pending',
        distance_bucket: '~50m away',
        detected_at: expect.any(String),
        expires_at: expect.any(String),
        you_revealed: false,
        other_revealed: false,
      });
      const reveal = (user: User, id = pending.id) => t.request('POST', `${P}/encounters/proximity/${id}/reveal`, { token: user.token });
      expect((await reveal(carol)).body.error).toBe('Not your match');
      expect(((await reveal(pia, 'pm_nope')) as { status: number }).status).toBe(400);
      expect((await reveal(pia, 'pm_nope')).body.error).toBe('Match not found or expired');
      const first = await reveal(pia);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ status: pia.id < pio.id ? 'revealed_a' : 'revealed_b', you_revealed: true, other_revealed: false });
      expect((await reveal(pia)).body.error).toBe('Already revealed');
      expect((await get(pio, '/proximity-matches?status=pending')).body.data).toEqual([]);
      expect((await get(pio, '/proximity-matches')).body.data[0]).toMatchObject({ you_revealed: false, other_revealed: true });
      const both = await reveal(pio);
      expect(both.body.data).toMatchObject({ status: 'matched' });
      expect([both.body.data.user_a.id, both.body.data.user_b.id].sort()).toEqual([pia.id, pio.id].sort());
      expect(both.body.data).not.toHaveProperty('you_revealed');
      expect((await reveal(pia)).body.error).toBe('Already matched');
      expect((await get(pia, '/proximity-matches?status=bogus')).status).toBe(400);
      expect((await get(pia, '/proximity-matches?status=pending&status=matched')).status).toBe(400);
      await settled(t);
      expect((await get(pia, `/${pio.id}`)).body.data).toEqual([expect.objectContaining({ context_type: 'proximity', context_id: pending.id, encounter_count: 1 })]);
      for (const user of [pia, pio]) {
        const rewards = (await t.app.get<EventStore>(EVENT_STORE).readStream(`wallet-${user.id}`)).filter((e) => e.data.action === 'proximity_match');
        expect(rewards.map((e) => [e.type, e.data.pulse, e.data.source_id])).toEqual([['RewardGranted', 10, pending.id]]);
      }
    });

    it('given a ping stored less than 30 s ago, when pinging again, then nothing is stored and the reply says rate_limited', async () => {
      const res = await ping(pia, { lat: here.lat + 0.01, lon: here.lon });
      expect(res.body.data).toEqual({ nearby_count: 1, rate_limited: true });
    });

    it('given two users pinging at once 10 m apart, then exactly one match between them; revealing at once, one matched', async () => {
      const [x, y] = [await signUp(t, { prefix: 'enc' }), await signUp(t, { prefix: 'enc' })];
      const sydney = { lat: -33.86882, lon: 151.20929 };
      const replies = await Promise.all([ping(x, sydney), ping(y, { lat: sydney.lat + 0.00009, lon: sydney.lon })]);
      expect(replies.map((r) => r.status)).toEqual([200, 200]);
      expect(replies.reduce((sum, r) => sum + (r.body.data.new_matches as number), 0)).toBe(1);
      await settled(t);
      expect(await proximityNotices(x)).toHaveLength(1);
      expect(await proximityNotices(y)).toHaveLength(1);
      // both reveal at once: the pair's stream orders them, so one reveal and one match, one encounter
      const [match] = (await get(x, '/proximity-matches')).body.data as Array<{ id: string }>;
      const reveals = await Promise.all([x, y].map((user) => t.request('POST', `${P}/encounters/proximity/${match.id}/reveal`, { token: user.token })));
      const statuses = reveals.map((r) => r.body.data.status as string);
      expect(statuses.filter((status) => status === 'matched')).toHaveLength(1);
      expect(statuses.filter((status) => /^revealed_[ab]$/.test(status))).toHaveLength(1);
      await settled(t);
      expect((await get(x, `/${y.id}`)).body.data).toEqual([expect.objectContaining({ context_type: 'proximity', encounter_count: 1 })]);
    });

    it('location settings: sharing off erases the stored location from every read model; PUT turns it back on', async () => {
      expect((await get(pia, '/location-settings')).body.data).toEqual({ location_sharing_enabled: false, has_location: true });
      const off = await t.request('PATCH', `${P}/encounters/location-settings`, { token: pia.token, body: { location_sharing_enabled: false } });
      expect([off.status, off.body.data]).toEqual([200, { location_sharing_enabled: false }]);
      expect((await get(pia, '/location-settings')).body.data).toEqual({ location_sharing_enabled: false, has_location: false });
      expect((await get(pio, '/nearby-now')).body.data).toEqual({ nearby_count: 0 });
      const store = t.app.get<ReadStore>(READ_STORE);
      const stored = await Promise.all(
        ['location_pings', 'users', 'proximity_matches', 'notifications', 'social_encounters'].map((name) => store.collection(name).find({})),
      );
      const everything = JSON.stringify(stored);
      expect(['48.137154', '11.576124'].filter((digits) => everything.includes(digits))).toEqual([]);
      expect(everything).toContain('48.137514'); // pio's location stays: only pia turned sharing off
      const on = await t.request('PUT', `/social/encounters/location-settings`, { token: pia.token, body: { location_sharing_enabled: true } });
      expect(on.body.data).toEqual({ location_sharing_enabled: true });
      expect((await get(pia, '/location-settings')).body.data).toEqual({ location_sharing_enabled: true, has_location: false });
      const bad = await t.request('PUT', `${P}/encounters/location-settings`, { token: pia.token, body: { location_sharing_enabled: 'yes' } });
      expect(bad.status).toBe(400);
    });
  });
});
