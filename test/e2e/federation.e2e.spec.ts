/**
 * Federation on a central node without auto-accept (issue 17, item 2): a
 * node registers its key signing with it, stays pending until an admin
 * approves it, and only then reads the log; signatures that are not the
 * node's are refused; a caught-up reader's long poll gets the next commit.
 */
import { NodeKey } from '../../src/infrastructure/node-identity/node-key';
import { sendSigned, signRequest } from '../../src/infrastructure/node-identity/signed-request';
import { startTestApp, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(60_000);

const ADMIN = uniqueName('fedadmin');
/** a reply body, loosely typed like `request()`'s */
const json = (res: Response): Promise<any> => res.json();
const P = '/api/social';

describe('federation registry and log export', () => {
  let t: TestApp;
  let adminToken: string;
  const key = NodeKey.generate();
  const nodeId = 'region-test';

  const registerBody = (k: NodeKey = key, id = nodeId) => ({ node_id: id, public_key: k.publicKeyHex, url: 'http://127.0.0.1:1', tier: 'regional' });
  const pull = (query: string, k: NodeKey = key, id = nodeId) => sendSigned(k, id, t.url, { method: 'GET', path: `${P}/federation/log?${query}` });
  const registerUser = (username = uniqueName('feduser')) =>
    t.request('POST', `${P}/register`, { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    adminToken = (await registerUser(ADMIN)).body.data.token;
  });
  afterAll(() => t.close());

  it('given a registration signed with another key than the one registered, then it is refused with 401', async () => {
    const res = await sendSigned(NodeKey.generate(), nodeId, t.url, { method: 'POST', path: `${P}/federation/nodes/register`, body: registerBody() });

    expect(res.status).toBe(401);
    expect((await t.request('GET', `${P}/federation/nodes`, { token: adminToken })).body.data).toEqual([]);
  });

  it('given a node registered but not approved, when it reads the log, then it is refused with 401', async () => {
    const res = await sendSigned(key, nodeId, t.url, { method: 'POST', path: `${P}/federation/nodes/register`, body: registerBody() });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ node_id: nodeId, status: 'pending' });

    expect((await pull('after=0')).status).toBe(401);
  });

  it('given an admin approved the node, when it reads the log, then it gets the events in order with ids, streams, revisions and seals', async () => {
    const approved = await t.request('POST', `${P}/federation/nodes/${nodeId}/approve`, { token: adminToken });
    expect(approved.status).toBe(200);
    expect(approved.body.data).toMatchObject({ node_id: nodeId, status: 'approved' });

    const res = await pull('after=0&limit=3');
    expect(res.status).toBe(200);
    const { events, head } = (await json(res)).data;
    expect(events).toHaveLength(3);
    expect(events.map((e: { position: number }) => e.position)).toEqual([1, 2, 3]);
    expect(events[0]).toMatchObject({ event_id: expect.any(String), stream: expect.any(String), revision: 0, type: expect.any(String), seal: { hash: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(events[0].metadata.eventId).toBe(events[0].event_id);
    expect(head).toBeGreaterThanOrEqual(3);
  });

  it('given a request signed as the approved node with another key, then it is refused with 401', async () => {
    expect((await pull('after=0', NodeKey.generate())).status).toBe(401);
  });

  it('given a captured log request, when it is replayed, then it is refused with 401', async () => {
    const path = `${P}/federation/log?after=0&limit=1`;
    const headers = signRequest(key, nodeId, { method: 'GET', path });
    expect((await fetch(new URL(path, t.url), { headers })).status).toBe(200);
    expect((await fetch(new URL(path, t.url), { headers })).status).toBe(401);
  });

  it('given a caught-up reader waiting, when an event is committed, then the long poll answers with it', async () => {
    const head = (await json(await pull('after=0&limit=1'))).data.head;
    const waiting = pull(`after=${head}&wait=10`);
    await registerUser();

    const res = await waiting;
    expect(res.status).toBe(200);
    const { events } = (await json(res)).data;
    expect(events.length).toBeGreaterThan(0);
    expect(events[0].position).toBe(head + 1);
  });

  it('given a caught-up reader and no new event, when it long-polls, then it is held for the wait and answered with an empty page', async () => {
    const head = (await json(await pull('after=0&limit=1'))).data.head;
    const started = Date.now();

    const res = await pull(`after=${head + 1000}&wait=1`);

    expect(res.status).toBe(200);
    expect((await json(res)).data.events).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('given concurrent registrations of one node id with different keys, then exactly one key is registered and the others get 409', async () => {
    const keys = Array.from({ length: 5 }, () => NodeKey.generate());
    const replies = await Promise.all(
      keys.map((k) => sendSigned(k, 'region-race', t.url, { method: 'POST', path: `${P}/federation/nodes/register`, body: registerBody(k, 'region-race') })),
    );

    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const listed = (await t.request('GET', `${P}/federation/nodes?limit=100`, { token: adminToken })).body.data.filter((n: { node_id: string }) => n.node_id === 'region-race');
    expect(listed).toHaveLength(1);
    expect(keys.map((k) => k.publicKeyHex)).toContain(listed[0].public_key);
  });

  it.each(['after=-1', 'limit=0', 'limit=1001', 'wait=31', 'after=abc'])('given %s, then 400', async (query) => {
    expect((await pull(query)).status).toBe(400);
  });

  it('given an unknown node, when an admin approves it, then 404', async () => {
    expect((await t.request('POST', `${P}/federation/nodes/nobody/approve`, { token: adminToken })).status).toBe(404);
  });
});
