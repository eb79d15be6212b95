/**
 * The durable encounter record over HTTP (social-routes §5, §13): a comment
 * records an encounter between its author and the post's author; the pair's
 * rows, suggestions, bonds, acknowledgement, and concurrent records of one
 * pair counted exactly once each. One app for the file.
 */
import { settled, startTestApp, type TestApp, uniqueName } from '../support/app';

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

  async function register(): Promise<User> {
    const username = uniqueName('enc');
    const res = await t.request('POST', `${P}/register`, { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, token: res.body.data.token };
  }
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
    [alice, bob, carol] = [await register(), await register(), await register()];
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
    const dave = await register();
    await Promise.all(Array.from({ length: 10 }, () => comment(dave, postId)));
    await settled(t);
    expect((await get(dave, `/${alice.id}`)).body.data).toEqual([expect.objectContaining({ encounter_count: 10, bond_level: 5 })]);
  });
});
