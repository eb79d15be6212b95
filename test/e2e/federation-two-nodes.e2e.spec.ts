/**
 * Regional replay across two service processes (issue 17, item 2), on the
 * embedded stores and again on MongoDB + Kafka (each node its own database
 * and topic prefix): central (FEDERATION_AUTO_ACCEPT=1) takes writes; a regional
 * node registers, replays central's log one event per page, is killed with
 * SIGKILL mid-replay, restarts from its checkpoint, catches up and follows
 * the log live. Then every read model's digest is equal on both nodes, the
 * regional log verifies and its running hash equals central's (same events,
 * same order, same bytes). Clients write at both nodes: a write at the
 * regional node travels to central through its sync queue (a
 * `regional_write` item) and the client reads it there next, concurrent
 * votes included; the digests stay equal.
 */
import { readFileSync, mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_FILE } from '../../src/infrastructure/federation/replication-checkpoint';
import { adapterMode } from '../support/adapters';
import { request, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';

jest.setTimeout(300_000);

const ADMIN = uniqueName('fedadmin');
const PASSWORD = 'correct horse battery';
const P = '/api/social';

describe(`federation: a regional node replays central’s log (${adapterMode()})`, () => {
  const shared = { JWT_SECRET: 'federation-e2e-secret-of-at-least-32-chars', SVC_ADMIN_USERS: ADMIN };
  const regionalDir = mkdtempSync(join(tmpdir(), 'svc-fed-regional-'));
  const centralDir = mkdtempSync(join(tmpdir(), 'svc-fed-central-'));
  const centralEnv = { ...shared, SVC_NODE_ID: 'central-1', SVC_NODE_TIER: 'central', FEDERATION_AUTO_ACCEPT: '1' };
  let central: ServiceProcess;
  let regional: ServiceProcess | null = null;
  let adminToken: string;

  const checkpoint = (): number => (existsSync(join(regionalDir, CHECKPOINT_FILE)) ? JSON.parse(readFileSync(join(regionalDir, CHECKPOINT_FILE), 'utf8')).position : 0);
  const regionalEnv = (extra: Record<string, string> = {}) => ({ ...shared, SVC_NODE_ID: 'region-eu', SVC_NODE_TIER: 'regional', FEDERATION_UPSTREAM_URL: central.url, SYNC_INTERVAL_MS: '300', ...extra });
  const digest = async (node: ServiceProcess) => (await request(node.url, 'GET', `${P}/audit/digest`, { token: adminToken })).body.data.digests;
  const verify = async (node: ServiceProcess) => (await request(node.url, 'GET', `${P}/audit/verify`, { token: adminToken })).body.data;

  async function register(username: string): Promise<{ id: string; token: string }> {
    const res = await request(central.url, 'POST', `${P}/register`, { body: { username, email: `${username}@example.com`, password: PASSWORD } });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, token: res.body.data.token };
  }

  /** A user who registers, posts, joins the contest: several streams and read models. */
  async function activeUser(): Promise<void> {
    const user = await register(uniqueName('fed'));
    expect((await request(central.url, 'POST', `${P}/posts`, { token: user.token, body: { title: `post of ${user.id}`, content: 'replicated' } })).status).toBe(201);
    expect((await request(central.url, 'POST', '/api/hive/contest/join', { token: user.token, body: { track: 'digital' } })).status).toBe(200);
  }

  beforeAll(async () => {
    central = await startServiceProcess(centralDir, centralEnv);
    adminToken = (await register(ADMIN)).token;
    for (let i = 0; i < 12; i++) await activeUser();
  });

  afterAll(async () => {
    for (const node of [regional, central]) {
      if (node && node.child.exitCode === null) {
        node.child.kill('SIGTERM');
        await node.exited;
      }
    }
  });

  it('given a log on central, when the regional node is killed mid-replay and restarted, then it catches up and follows live with equal digests', async () => {
    const centralHead = (await verify(central)).head.position;
    // one event per page, so that the kill lands in the middle of the log
    let first: import('node:child_process').ChildProcess | null = null;
    let firstOutput = '';
    const starting = startServiceProcess(regionalDir, regionalEnv({ FEDERATION_PAGE_SIZE: '1' }), (child) => {
      first = child;
      child.stdout!.on('data', (d) => (firstOutput += String(d)));
      child.stderr!.on('data', (d) => (firstOutput += String(d)));
    }).catch(() => null);
    // the regional node's start (ts-node compiling the service) is part of this wait
    await eventually('the regional node to replicate part of the log', () => checkpoint() > 0, { timeoutMs: 150_000, intervalMs: 2 }).catch((error: Error) => {
      throw new Error(`${error.message}; the regional node said: ${firstOutput.slice(-2000)}`);
    });
    first!.kill('SIGKILL');
    await starting;
    const killedAt = checkpoint();
    expect(killedAt).toBeGreaterThan(0);
    expect(checkpoint()).toBeLessThan(centralHead);

    regional = await startServiceProcess(regionalDir, regionalEnv());
    for (let i = 0; i < 3; i++) await activeUser(); // written while the regional node follows live

    const centralDigests = await digest(central);
    await eventually('the regional read models to equal central’s', async () => JSON.stringify(await digest(regional!)) === JSON.stringify(centralDigests), { timeoutMs: 30_000 });

    const [here, there] = [await verify(central), await verify(regional)];
    expect(there).toMatchObject({ ok: true, broken: null });
    expect(there.head).toEqual(here.head);
  });

  it('given a regional node, when a client registers and posts there, then central makes the writes and the client reads them at the regional node at once', async () => {
    const username = uniqueName('regional');
    const registered = await request(regional!.url, 'POST', `${P}/register`, { body: { username, email: `${username}@example.com`, password: PASSWORD } });
    expect(registered.status).toBe(201);
    const user = { id: registered.body.data.id, token: registered.body.data.token };

    const posted = await request(regional!.url, 'POST', `${P}/posts`, { token: user.token, body: { title: 'written at the regional node', content: 'travels to central' } });
    expect(posted.status).toBe(201);

    const here = await request(regional!.url, 'GET', `${P}/posts/${posted.body.data.id}`, { token: user.token });
    const there = await request(central.url, 'GET', `${P}/posts/${posted.body.data.id}`, { token: user.token });
    expect(here.status).toBe(200);
    expect(here.body.data).toMatchObject({ title: 'written at the regional node', author_id: user.id });
    expect(there.body.data).toEqual(here.body.data);
  });

  it('given a regional node, when a client sends a write central refuses, then the client gets central’s refusal', async () => {
    const user = await register(uniqueName('refused'));

    const res = await request(regional!.url, 'POST', `${P}/posts`, { token: user.token, body: { content: 'no title' } });

    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(await request(regional!.url, 'POST', `${P}/posts`, { body: { title: 'no credential', content: 'x' } })).toMatchObject({ status: 401 });
  });

  it('given a user at the regional node, when they read their referral code and wallet the first time, then central creates them and the regional node answers them', async () => {
    const user = await register(uniqueName('firstread'));

    const code = await request(regional!.url, 'GET', `${P}/referral/code`, { token: user.token });
    const wallet = await request(regional!.url, 'GET', `${P}/resonance/wallet`, { token: user.token });

    expect(code.status).toBe(200);
    expect(code.body.data.code).toMatch(/^[A-Z0-9]{8}$/);
    expect((await request(central.url, 'GET', `${P}/referral/code`, { token: user.token })).body.data.code).toBe(code.body.data.code);
    expect(wallet.status).toBe(200);
    expect(wallet.body.data).toMatchObject({ user_id: user.id });
  });

  it('given a post, when one user votes 12 times at once at the regional node, then one vote counts, on both nodes', async () => {
    const author = await register(uniqueName('author'));
    const voter = await register(uniqueName('voter'));
    const post = (await request(central.url, 'POST', `${P}/posts`, { token: author.token, body: { title: 'vote here', content: 'races' } })).body.data;

    const votes = await Promise.all(Array.from({ length: 12 }, (_, i) => request(regional!.url, 'POST', `${P}/posts/${post.id}/${i % 2 ? 'downvote' : 'upvote'}`, { token: voter.token })));

    expect(votes.map((v) => v.status)).toEqual(Array(12).fill(200));
    const here = (await request(regional!.url, 'GET', `${P}/posts/${post.id}`, { token: voter.token })).body.data;
    expect(here.upvotes + here.downvotes).toBeLessThanOrEqual(1);
    expect(here.score).toBe(here.user_vote);
    expect((await request(central.url, 'GET', `${P}/posts/${post.id}`, { token: voter.token })).body.data).toEqual(here);
  });

  it('given writes on both nodes, when the regional node caught up, then every read model’s digest equals central’s and its queue is empty', async () => {
    await activeUser();
    const centralDigests = await digest(central);

    await eventually('the regional read models to equal central’s', async () => JSON.stringify(await digest(regional!)) === JSON.stringify(centralDigests), { timeoutMs: 30_000 });
    const queue = await request(regional!.url, 'GET', `${P}/sync/queue`, { token: adminToken });
    expect(queue.body.meta).toMatchObject({ total: 0, parent_url: central.url, counts: { queued: 0, failed: 0, dead: 0 } });
    expect(queue.body.meta.counts.completed).toBeGreaterThanOrEqual(15);
  });

  it('given central down, when a client posts at the regional node, then the write is queued (202) and lands once central is back', async () => {
    const user = await register(uniqueName('offline'));
    const port = new URL(central.url).port;
    central.child.kill('SIGTERM');
    await central.exited;

    const res = await request(regional!.url, 'POST', `${P}/posts`, { token: user.token, body: { title: 'written while central was down', content: 'queued' } });

    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ queued: true, sync_item_id: expect.stringMatching(/^rw:/), status: 'queued', error_message: expect.any(String) });
    // sent again every 300 ms while central is down: the outage uses up no retries
    const outbox = async () => (await request(regional!.url, 'GET', `${P}/sync/queue`, { token: adminToken })).body.data;
    const firstAttempt = (await outbox())[0].last_attempt_at;
    await eventually('the write to be sent again', async () => (await outbox())[0].last_attempt_at > firstAttempt);
    expect(await outbox()).toEqual([expect.objectContaining({ id: res.body.data.sync_item_id, operation_type: 'regional_write', target_tier: 'central', retry_count: 0 })]);

    central = await startServiceProcess(centralDir, { ...centralEnv, PORT: port });
    await eventually('the queued post to come back in the replicated log', async () => {
      const mine = await request(regional!.url, 'GET', `${P}/users/${user.id}/posts`, { token: user.token });
      return JSON.stringify(mine.body).includes('written while central was down');
    }, { timeoutMs: 60_000 });
    expect((await request(regional!.url, 'GET', `${P}/sync/queue`, { token: adminToken })).body.meta.total).toBe(0);
  });

  it('given the regional node, when central lists the nodes, then it is registered and approved (FEDERATION_AUTO_ACCEPT)', async () => {
    const res = await request(central.url, 'GET', `${P}/federation/nodes`, { token: adminToken });

    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ node_id: 'region-eu', tier: 'regional', status: 'approved', approved_by: 'system:federation-auto-accept' })]);
  });
});
