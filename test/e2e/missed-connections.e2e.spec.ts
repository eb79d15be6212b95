/**
 * Missed connections over HTTP (social-routes §13): create (201, each check a
 * 400, at most 3 per UTC day even when sent at once), the radius list with
 * distance labels and its sorts, mine, detail, withdraw, respond (201, once
 * per user even when sent at once), accept (an encounter in context
 * missed_connection and 5 pulse each, once), suggest-locations, and the
 * literal routes not captured by `{id}`. No route ever returns coordinates;
 * turning location sharing off or erasing the account blanks them in the read model.
 * Each scenario posts around its own city, far from the others. One app for the file.
 */
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { MISSED_CONNECTIONS } from '../../src/projections/proximity/missed-connections.projection';
import { settled, signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';
const MC = `${P}/encounters/missed-connections`;

interface User {
  id: string;
  token: string;
}
interface Place {
  lat: number;
  lon: number;
}

/** A point `north` and `east` metres from the place. */
const offset = (place: Place, north: number, east = 0): Place => ({
  lat: place.lat + north / 111_195,
  lon: place.lon + east / (111_195 * Math.cos((place.lat * Math.PI) / 180)),
});
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

/** Every key of a JSON value, at any depth. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap(keysOf) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]) : [];
const COORDINATE_KEYS = ['lat', 'lon', 'latitude', 'longitude', 'geohash', 'cell6', 'cell5', 'cell4', 'cell3', 'cell2'];

describe('missed connections over HTTP', () => {
  let t: TestApp;
  /** every reply body of the file, to prove no coordinates ever leave */
  const bodies: unknown[] = [];

  const register = (): Promise<User> => signUp(t, { prefix: 'mc' });
  const call = async (user: User, method: string, path: string, body?: unknown) => {
    const res = await t.request(method, `${MC}${path}`, { token: user.token, body });
    bodies.push(res.body);
    return res;
  };
  const body = (place: Place, extra: Record<string, unknown> = {}) => ({
    lat: place.lat,
    lon: place.lon,
    location_name: 'Cafe Einstein',
    description: 'You wore a red scarf',
    was_at: hoursAgo(2),
    ...extra,
  });
  const create = async (user: User, place: Place, extra: Record<string, unknown> = {}): Promise<string> => {
    const res = await call(user, 'POST', '', body(place, extra));
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('given no token, when listing or posting, then 401', async () => {
    expect((await t.request('GET', `${MC}?lat=1&lon=1`)).status).toBe(401);
    expect((await t.request('POST', MC, { body: {} })).status).toBe(401);
  });

  it('given a valid body, when posting, then 201 with the post, active, expiring 7 days later, without coordinates; under /social too', async () => {
    const ann = await register();
    const res = await call(ann, 'POST', '', body({ lat: 48.1372, lon: 11.5756 }, { location_name: 'Café <b>Luitpold</b>' }));
    expect(res.status).toBe(201);
    const post = res.body.data;
    expect(post).toMatchObject({ user_id: ann.id, location_name: 'Café &lt;b&gt;Luitpold&lt;/b&gt;', is_active: true, response_count: 0 });
    expect(Date.parse(post.expires_at) - Date.parse(post.created_at)).toBe(7 * 24 * 3600_000);
    expect(keysOf(post)).not.toEqual(expect.arrayContaining(['lat']));
    const viaSocial = await t.request('GET', `/social/encounters/missed-connections/${post.id}`, { token: ann.token });
    expect(viaSocial.status).toBe(200);
  });

  it.each([
    ['no lat', { lat: undefined }, 'lat and lon required'],
    ['a text lon', { lon: 'east' }, 'Invalid coordinates'],
    ['lat 95', { lat: 95 }, 'Coordinates out of range'],
    ['a 2-character location_name', { location_name: 'ab' }, 'location_name must be 3-200 characters'],
    ['a 201-character location_name', { location_name: 'x'.repeat(201) }, 'location_name must be 3-200 characters'],
    ['a 501-character description', { description: 'd'.repeat(501) }, 'description must be at most 500 characters'],
    ['was_at yesterday', { was_at: 'yesterday' }, 'was_at must be an ISO 8601 date-time'],
    ['was_at in an hour', { was_at: new Date(Date.now() + 3600_000).toISOString() }, 'was_at cannot be in the future'],
    ['was_at 7 days and 1 hour ago', { was_at: hoursAgo(7 * 24 + 1) }, 'was_at must be within the past 7 days'],
  ])('given %s, when posting, then 400 with a clear message and nothing is posted', async (_label, extra, message) => {
    const bea = await register();
    const res = await call(bea, 'POST', '', body({ lat: 50.1, lon: 8.68 }, extra));
    expect([res.status, res.body.error]).toEqual([400, message]);
    expect((await call(bea, 'GET', '/mine')).body.meta.total).toBe(0);
  });

  it('given four posts sent at once by one user, then exactly three are posted and the fourth is refused', async () => {
    const cid = await register();
    const place = { lat: 53.55, lon: 9.99 };
    const results = await Promise.all([0, 1, 2, 3].map((i) => call(cid, 'POST', '', body(offset(place, i * 10)))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 400]);
    expect(results.find((r) => r.status === 400)?.body.error).toBe('You can post at most 3 missed connections per day');
    const mine = await call(cid, 'GET', '/mine');
    expect([mine.body.data.length, mine.body.meta]).toEqual([3, expect.objectContaining({ total: 3, has_more: false })]);
  });

  describe('the radius list', () => {
    const berlin = { lat: 52.52, lon: 13.405 };
    let viewer: User;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      viewer = await register();
      const [near, mid, far, away, gone] = [await register(), await register(), await register(), await register(), await register()];
      ids.near = await create(near, offset(berlin, 50), { location_name: 'Alexanderplatz' });
      ids.mid = await create(mid, offset(berlin, 0, 300), { location_name: 'Alexanderplatz' });
      ids.far = await create(far, offset(berlin, -800), { location_name: 'Fernsehturm' });
      ids.away = await create(away, offset(berlin, 3000), { location_name: 'Prenzlauer Berg' });
      ids.gone = await create(gone, offset(berlin, 20), { location_name: 'Alexanderplatz' });
      expect((await call(gone, 'DELETE', `/${ids.gone}`)).status).toBe(200);
      // mid gets two responses, far one: the responses order
      expect((await call(viewer, 'POST', `/${ids.mid}/respond`, { message: 'me?' })).status).toBe(201);
      expect((await call(near, 'POST', `/${ids.mid}/respond`, { message: 'me!' })).status).toBe(201);
      expect((await call(viewer, 'POST', `/${ids.far}/respond`, { message: 'hi' })).status).toBe(201);
    });

    const list = (query: string) => call(viewer, 'GET', `?lat=${berlin.lat}&lon=${berlin.lon}${query}`);
    const idsOf = (res: { body: { data: Array<{ id: string }> } }) => res.body.data.map((p) => p.id);

    it('given the default radius (1 km), then the active posts within it, newest first, each with a distance label; withdrawn and farther ones left out', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(idsOf(res)).toEqual([ids.far, ids.mid, ids.near]);
      expect(res.body.data.map((p: { distance_label: string }) => p.distance_label)).toEqual(['< 1km', '< 500m', '< 100m']);
      expect(res.body.meta).toEqual(expect.objectContaining({ total: 3, has_more: false }));
    });

    it('given sort=nearest or sort=responses, then that order; a 5 km radius reaches the post 3 km away, labelled ~3km', async () => {
      expect(idsOf(await list('&sort=nearest'))).toEqual([ids.near, ids.mid, ids.far]);
      expect(idsOf(await list('&sort=responses'))).toEqual([ids.mid, ids.far, ids.near]);
      const wide = await list('&radius=5000&sort=nearest');
      expect(idsOf(wide)).toEqual([ids.near, ids.mid, ids.far, ids.away]);
      expect(wide.body.data[3].distance_label).toBe('~3km');
    });

    it('given limit and offset, then that page and has_more', async () => {
      const res = await list('&sort=nearest&limit=2&offset=1');
      expect(idsOf(res)).toEqual([ids.mid, ids.far]);
      expect(res.body.meta).toEqual(expect.objectContaining({ total: 3, has_more: false }));
      expect((await list('&limit=1')).body.meta).toEqual(expect.objectContaining({ total: 3, has_more: true }));
    });

    it.each([
      ['', 'lat and lon required'],
      ['?lat=52.5', 'lat and lon required'],
      ['?lat=north&lon=13', 'Invalid coordinates'],
      ['?lat=52.5&lon=13&radius=-5', 'radius must be a number of metres above 0 and at most 50000'],
      ['?lat=52.5&lon=13&sort=best', 'sort must be one of recent, nearest, responses'],
      ['?lat=52.5&lon=13&limit=many', 'limit must be a non-negative integer'],
    ])('given the query %s, then 400 with a clear message', async (query, message) => {
      const res = await call(viewer, 'GET', query);
      expect([res.status, res.body.error]).toEqual([400, message]);
    });

    it('given posts around a point, when suggesting locations, then the names of active posts within 5 km, most used first', async () => {
      const res = await call(viewer, 'GET', `/suggest-locations?lat=${berlin.lat}&lon=${berlin.lon}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { name: 'Alexanderplatz', count: 2 },
        { name: 'Fernsehturm', count: 1 },
        { name: 'Prenzlauer Berg', count: 1 },
      ]);
      expect((await call(viewer, 'GET', '/suggest-locations')).body.error).toBe('lat and lon required');
    });
  });

  describe('one post, its responses and the accepted one', () => {
    const place = { lat: 48.8566, lon: 2.3522 };
    let poster: User;
    let bob: User;
    let carol: User;
    let id: string;

    beforeAll(async () => {
      [poster, bob, carol] = [await register(), await register(), await register()];
      id = await create(poster, place, { description: 'Blue coat, <i>line 4</i>' });
    });

    it('given the literal routes, then mine and suggest-locations are not read as an id', async () => {
      const mine = await call(poster, 'GET', '/mine');
      expect([mine.status, mine.body.data.map((p: { id: string }) => p.id)]).toEqual([200, [id]]);
      const suggest = await call(poster, 'GET', `/suggest-locations?lat=${place.lat}&lon=${place.lon}`);
      expect([suggest.status, suggest.body.data]).toEqual([200, [{ name: 'Cafe Einstein', count: 1 }]]);
    });

    it('given an unknown id, when reading, responding, accepting or withdrawing, then 400 not found', async () => {
      for (const [method, path, payload] of [
        ['GET', '/mc_nope', undefined],
        ['POST', '/mc_nope/respond', { message: 'hi' }],
        ['POST', '/mc_nope/accept/mcr_nope', undefined],
        ['DELETE', '/mc_nope', undefined],
      ] as const) {
        const res = await call(bob, method, path, payload);
        expect([res.status, res.body.error]).toEqual([400, 'Missed connection not found']);
      }
    });

    it('given one’s own post or a too long message, when responding, then 400', async () => {
      expect((await call(poster, 'POST', `/${id}/respond`, { message: 'me' })).body.error).toBe('You cannot respond to your own missed connection');
      expect((await call(bob, 'POST', `/${id}/respond`, { message: 'm'.repeat(301) })).body.error).toBe('message must be at most 300 characters');
    });

    it('given five responses by bob sent at once, then exactly one is recorded (201) and the rest are refused', async () => {
      const results = await Promise.all([1, 2, 3, 4, 5].map((i) => call(bob, 'POST', `/${id}/respond`, { message: `It was me ${i}` })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 400, 400, 400, 400]);
      expect(new Set(results.filter((r) => r.status === 400).map((r) => r.body.error))).toEqual(new Set(['You have already responded to this missed connection']));
      const created = results.find((r) => r.status === 201)!.body.data;
      expect(Object.keys(created).sort()).toEqual(['created_at', 'id', 'message', 'missed_connection_id', 'responder_id', 'status']);
      expect(created).toMatchObject({ missed_connection_id: id, responder_id: bob.id, status: 'pending' });
    });

    it('given responses, when reading the post, then its poster, the responses with responders, and is_owner for the poster only', async () => {
      expect((await call(carol, 'POST', `/${id}/respond`, { message: '<script>x</script>' })).status).toBe(201);
      const seen = await call(poster, 'GET', `/${id}`);
      expect(seen.status).toBe(200);
      expect(seen.body.data).toMatchObject({ id, description: 'Blue coat, &lt;i&gt;line 4&lt;/i&gt;', response_count: 2, is_owner: true, user: { id: poster.id } });
      expect(Object.keys(seen.body.data.user).sort()).toEqual(['avatar_url', 'display_name', 'id', 'username']);
      expect(seen.body.data.responses.map((r: { responder: { id: string } }) => r.responder.id)).toEqual([bob.id, carol.id]);
      expect(seen.body.data.responses[1].message).toBe('&lt;script&gt;x&lt;/script&gt;');
      expect((await call(bob, 'GET', `/${id}`)).body.data.is_owner).toBe(false);
    });

    it('given a pending response, when anyone but the poster accepts, then 400; the poster accepts: accepted, once, with an encounter and 5 pulse each', async () => {
      const responses = (await call(poster, 'GET', `/${id}`)).body.data.responses as Array<{ id: string; responder_id: string }>;
      const bobs = responses.find((r) => r.responder_id === bob.id)!.id;
      expect((await call(bob, 'POST', `/${id}/accept/${bobs}`)).body.error).toBe('Not your missed connection');
      expect((await call(poster, 'POST', `/${id}/accept/mcr_nope`)).body.error).toBe('Response not found');
      const accepted = await call(poster, 'POST', `/${id}/accept/${bobs}`);
      expect(accepted.status).toBe(200);
      expect(accepted.body.data).toMatchObject({ id: bobs, missed_connection_id: id, responder_id: bob.id, status: 'accepted' });
      expect((await call(poster, 'POST', `/${id}/accept/${bobs}`)).body.error).toBe('Only a pending response can be accepted');
      await settled(t);
      const encounters = await t.request('GET', `${P}/encounters/${bob.id}`, { token: poster.token });
      expect(encounters.body.data).toEqual([
        expect.objectContaining({ context_type: 'missed_connection', context_id: id, location_label: 'Cafe Einstein', encounter_count: 1 }),
      ]);
      for (const user of [poster, bob]) {
        const rewards = (await t.app.get<EventStore>(EVENT_STORE).readStream(`wallet-${user.id}`)).filter((e) => e.data.action === 'missed_connection');
        expect(rewards.map((e) => [e.type, e.data.pulse, e.data.source_id])).toEqual([['RewardGranted', 5, bobs]]);
      }
    });

    it('given the post, when someone else withdraws it, then 400; the poster withdraws: inactive, still in mine, out of the list, closed to responses', async () => {
      expect((await call(bob, 'DELETE', `/${id}`)).body.error).toBe('Not your missed connection');
      const withdrawn = await call(poster, 'DELETE', `/${id}`);
      expect([withdrawn.status, withdrawn.body.data]).toEqual([200, { deleted: true }]);
      expect((await call(poster, 'GET', '/mine')).body.data).toEqual([expect.objectContaining({ id, is_active: false })]);
      expect((await call(bob, 'GET', `?lat=${place.lat}&lon=${place.lon}`)).body.data).toEqual([]);
      const dave = await register();
      expect((await call(dave, 'POST', `/${id}/respond`, { message: 'me' })).body.error).toBe('This missed connection is no longer active');
    });
  });

  it('given a pending response accepted three times at once, then one accept succeeds and the pair gets one encounter and 5 pulse each, once', async () => {
    const [poster, responder] = [await register(), await register()];
    const id = await create(poster, { lat: 41.9028, lon: 12.4964 }, { location_name: 'Trevi' });
    const responseId = (await call(responder, 'POST', `/${id}/respond`, { message: 'me' })).body.data.id as string;
    const accepts = await Promise.all([1, 2, 3].map(() => call(poster, 'POST', `/${id}/accept/${responseId}`)));
    expect(accepts.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    await settled(t);
    const encounters = await t.request('GET', `${P}/encounters/${responder.id}`, { token: poster.token });
    expect(encounters.body.data).toEqual([expect.objectContaining({ context_type: 'missed_connection', context_id: id, encounter_count: 1 })]);
    for (const user of [poster, responder]) {
      const rewards = (await t.app.get<EventStore>(EVENT_STORE).readStream(`wallet-${user.id}`)).filter((e) => e.data.action === 'missed_connection');
      expect(rewards.map((e) => e.data.pulse)).toEqual([5]);
    }
  });

  it('given posts by two users, when one turns location sharing off and the other erases the account, then both posts leave every radius lookup and no read model keeps their coordinates', async () => {
    const oslo = { lat: 59.9139, lon: 10.7522 };
    const [quiet, erased, stays, viewer] = [await register(), await register(), await register(), await register()];
    const quietId = await create(quiet, offset(oslo, 40), { location_name: 'Aker Brygge' });
    await create(erased, offset(oslo, 60), { location_name: 'Aker Brygge' });
    const staysId = await create(stays, offset(oslo, 80), { location_name: 'Karl Johans gate' });
    const sharing = (enabled: boolean) => t.request('PATCH', `${P}/encounters/location-settings`, { token: quiet.token, body: { location_sharing_enabled: enabled } });
    expect([(await sharing(true)).status, (await sharing(false)).status]).toEqual([200, 200]);
    expect((await t.request('DELETE', `${P}/users/${erased.id}/data`, { token: erased.token })).status).toBe(200);
    await settled(t);
    const near = await call(viewer, 'GET', `?lat=${oslo.lat}&lon=${oslo.lon}`);
    expect(near.body.data.map((p: { id: string }) => p.id)).toEqual([staysId]);
    expect((await call(viewer, 'GET', `/suggest-locations?lat=${oslo.lat}&lon=${oslo.lon}`)).body.data).toEqual([{ name: 'Karl Johans gate', count: 1 }]);
    expect((await call(quiet, 'GET', '/mine')).body.data).toEqual([expect.objectContaining({ id: quietId, is_active: true })]);
    const docs = await t.app.get<ReadStore>(READ_STORE).collection(MISSED_CONNECTIONS).find({ user_id: { $in: [quiet.id, erased.id] } });
    expect(docs.map((doc) => [doc.lat, doc.lon, doc.cell6])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
  });

  it('given every reply of this file, then none carries coordinates or geohash cells', () => {
    expect(bodies.length).toBeGreaterThan(40);
    expect(bodies.flatMap(keysOf).filter((key) => COORDINATE_KEYS.includes(key))).toEqual([]);
  });
});
