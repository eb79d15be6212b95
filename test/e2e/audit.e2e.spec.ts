/**
 * The audit routes (issue 17): the log's integrity (GET /audit/verify and
 * `npm run audit:verify`, with the SQLite file edited while the service is
 * stopped), who did what (GET /audit/events) and read-model digests (GET
 * /audit/digest and `npm run projections:digest`): equal on two nodes fed
 * the same events, kept by a rebuild.
 */
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { auditVerify } from '../../src/cli/audit-verify';
import { projectionsDigest } from '../../src/cli/projections-digest';
import { loadConfig } from '../../src/config/config';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { UpcasterRegistry } from '../../src/infrastructure/eventsourcing/upcasters';
import { createEventStore, createKeyStore, createReadStore } from '../../src/infrastructure/ports.factory';
import { ProjectionEngine } from '../../src/infrastructure/projections/projection-engine';
import { ProjectionRegistry } from '../../src/infrastructure/projections/projection-registry';
import { AuditQueries } from '../../src/modules/audit/audit.queries';
import { ALL_PROJECTIONS } from '../../src/projections';
import { PERSONAL_DATA } from '../../src/aggregates/personal-data';
import { adapterEnv } from '../support/adapters';
import { settled, signUp, startTestApp, TEST_PASSWORD, type TestApp, uniqueName } from '../support/app';

jest.setTimeout(120_000);

const ADMIN = uniqueName('auditadmin');

describe('audit', () => {
  let t: TestApp;
  let adminToken: string;
  let user: { id: string; token: string; username: string };

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    adminToken = (await signUp(t, { username: ADMIN })).token;
    user = await signUp(t, { prefix: 'audited' });
    for (let i = 0; i < 3; i++) await signUp(t, { prefix: 'other' });
    for (let i = 0; i < 2; i++) await t.request('POST', '/api/social/login', { body: { username: user.username, password: TEST_PASSWORD } });
    await settled(t);
  });

  afterAll(() => t.close());

  const get = (path: string, token = adminToken) => t.request('GET', `/api/social/audit${path}`, { token });

  describe('GET /audit/verify', () => {
    it('given an untouched log, when an admin verifies it, then every link holds and the head is reported', async () => {
      const res = await get('/verify');

      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ ok: true, unsealed: 0, sealed_from: 1, broken: null });
      expect(res.body.data.checked).toBeGreaterThanOrEqual(7);
      expect(res.body.data.head.position).toBe(await t.app.get<EventStore>(EVENT_STORE).headPosition());
    });

    it('given a plain user, when verifying, then 403', async () => {
      expect((await get('/verify', user.token)).status).toBe(403);
      expect((await get('/events', user.token)).status).toBe(403);
      expect((await get('/digest', user.token)).status).toBe(403);
    });
  });

  describe('GET /audit/events', () => {
    it('given an actor, when listed, then only that user\'s events come, newest first, with the page meta', async () => {
      const res = await get(`/events?actor=${user.id}`);

      expect(res.status).toBe(200);
      const events = res.body.data as { actor: string; position: number; stream: string }[];
      expect(events.length).toBeGreaterThanOrEqual(3);
      expect(events.every((e) => e.actor === user.id)).toBe(true);
      expect(events.map((e) => e.position)).toEqual([...events.map((e) => e.position)].sort((a, b) => b - a));
      expect(res.body.meta).toEqual({ total: events.length, limit: 50, offset: 0, has_more: false });
    });

    it('given events that hold credential material, when listed, then it is shown redacted', async () => {
      const res = await get(`/events?stream=user-${user.id}&type=UserRegistered`);

      expect(res.body.data).toHaveLength(1);
      expect(res.body.data[0].data.password_hash).toBe('[redacted]');
      expect(res.body.data[0].data.username).toBe(user.username);
      expect(JSON.stringify(res.body)).not.toMatch(/\$argon2/);
    });

    it('given a correlation id, when listed, then the events of that one request come', async () => {
      const [latest] = (await get(`/events?actor=${user.id}&limit=1`)).body.data;

      const res = await get(`/events?correlation_id=${latest.correlation_id}`);

      expect(res.body.data.length).toBeGreaterThanOrEqual(1);
      expect(res.body.data.every((e: { correlation_id: string }) => e.correlation_id === latest.correlation_id)).toBe(true);
      expect(res.body.data.map((e: { event_id: string }) => e.event_id)).toContain(latest.event_id);
    });

    it('given a stream, a type and a page, when listed, then that page of the stream\'s events of that type comes', async () => {
      const stream = `user-${user.id}`;
      const all = (await get(`/events?stream=${stream}`)).body;
      const type = all.data[0].type as string;

      const page = await get(`/events?stream=${stream}&type=${type}&limit=1&offset=0`);

      expect(all.data.every((e: { stream: string }) => e.stream === stream)).toBe(true);
      expect(all.data.map((e: { revision: number }) => e.revision)).toEqual([...Array(all.data.length).keys()].reverse());
      expect(page.body.data).toEqual([all.data[0]]);
      expect(page.body.meta).toEqual({ total: all.data.filter((e: { type: string }) => e.type === type).length, limit: 1, offset: 0, has_more: page.body.meta.total > 1 });
    });

    it('given no filter and an offset, when listed, then the whole log is paged and counted', async () => {
      const head = await t.app.get<EventStore>(EVENT_STORE).headPosition();

      const res = await get('/events?limit=2&offset=1');

      expect(res.body.data.map((e: { position: number }) => e.position)).toEqual([head - 1, head - 2]);
      expect(res.body.meta).toEqual({ total: head, limit: 2, offset: 1, has_more: true });
    });

    it.each([
      ['a non-numeric limit', '?limit=abc', 'limit must be a non-negative integer'],
      ['a repeated actor', '?actor=a&actor=b', 'actor must be one string of at most 200 characters'],
      ['an overlong stream', `?stream=${'s'.repeat(201)}`, 'stream must be one string of at most 200 characters'],
    ])('given %s, when listed, then 400 naming it', async (_, query, message) => {
      const res = await get(`/events${query}`);

      expect(res.status).toBe(400);
      expect(res.body.error).toBe(message);
    });
  });

  describe('GET /audit/digest, projections:digest, audit:verify on a second node', () => {
    let replica: TestApp;
    let replicaRunning = false;
    /** the row the byte-flip test changed, as it was */
    let flipped: { position: number; data: string } | null = null;

    /** this node's digest over HTTP, taken before the replica starts (a second app in this process takes over the token secret) */
    let here: { status: number; body: { data: { digests: Record<string, string>; position: number } } };

    beforeAll(async () => {
      here = await get('/digest');
      replica = await startTestApp();
      replicaRunning = true;
      const source = t.app.get<EventStore>(EVENT_STORE);
      const target = replica.app.get<EventStore>(EVENT_STORE);
      for (const event of await source.readAll()) {
        await target.append(event.streamId, [{ type: event.type, data: event.data, metadata: event.metadata }], event.revision === 0 ? 'no_stream' : event.revision - 1);
      }
      await settled(replica);
    });

    afterAll(async () => {
      if (replicaRunning) await replica.close();
      else rmSync(replica.dataDir, { recursive: true, force: true });
    });

    it('given two nodes fed the same events, when each digests its read models, then the digests are equal', async () => {
      expect(here.status).toBe(200);
      // the replica signs tokens with its own secret: asked in process, so that no login is added to its log
      const there = await replica.app.get(AuditQueries).digest();

      expect(Object.keys(here.body.data.digests)).toEqual(ALL_PROJECTIONS.map((p) => p.name).sort());
      expect(there.digests).toEqual(here.body.data.digests);
      // each node's position is its own log's head: the replica's log also holds the contest window it fixed at its first start
      expect(here.body.data.position).toBe(await t.app.get<EventStore>(EVENT_STORE).headPosition());
      expect(there.position).toBe(await replica.app.get<EventStore>(EVENT_STORE).headPosition());
    });

    it('given the replica stopped, when its read models are rebuilt from the log, then projections:digest gives the same digests', async () => {
      const before = await replica.app.get(AuditQueries).digest();
      await replica.close(false);
      replicaRunning = false;
      const config = loadConfig({ DATA_DIR: replica.dataDir, ...adapterEnv(replica.dataDir) });
      const eventStore = await createEventStore(config, new UpcasterRegistry(), { catalogue: PERSONAL_DATA, keys: await createKeyStore(config) });
      const readStore = await createReadStore(config);
      await new ProjectionEngine(eventStore, readStore, new ProjectionRegistry(ALL_PROJECTIONS)).rebuild(ALL_PROJECTIONS);
      await readStore.close();
      await eventStore.close();

      expect(await projectionsDigest(config)).toEqual(before);
    });

    it('given one byte of an event flipped in the stopped replica\'s file, when audit:verify runs, then it exits 3 naming that event', async () => {
      const file = join(replica.dataDir, 'events.db');
      const db = new Database(file);
      const target = db.prepare<[string], { position: number; event_id: string; revision: number; data: string }>(
        'SELECT position, event_id, revision, data FROM events WHERE stream_id = ? ORDER BY revision LIMIT 1',
      ).get(`user-${user.id}`)!;
      flipped = { position: target.position, data: target.data };
      const bytes = Buffer.from(target.data, 'utf8');
      bytes[bytes.indexOf(user.username)] ^= 0x01;
      db.prepare('UPDATE events SET data = ? WHERE position = ?').run(bytes.toString('utf8'), target.position);
      db.close();

      const root = join(__dirname, '..', '..');
      const run = await promisify(execFile)(process.execPath, ['-r', 'ts-node/register', join(root, 'src', 'cli', 'audit-verify.ts')], {
        cwd: root,
        env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', DATA_DIR: replica.dataDir, ...adapterEnv(replica.dataDir) },
      }).then(
        () => ({ code: 0, stdout: '' }),
        (error: { code: number; stdout: string }) => error,
      );

      expect(run.code).toBe(3);
      expect(run.stdout).toContain(`BROKEN at stream user-${user.id} revision ${target.revision}, position ${target.position}, event ${target.event_id}: hash_mismatch`);
    });

    it('given a row deleted from the stopped replica\'s file, when verified, then the event after it is named', async () => {
      const db = new Database(join(replica.dataDir, 'events.db'));
      if (flipped) db.prepare('UPDATE events SET data = ? WHERE position = ?').run(flipped.data, flipped.position);
      const last = db.prepare<[], { position: number }>('SELECT MAX(position) AS position FROM events').get()!.position;
      db.prepare('DELETE FROM events WHERE position = ?').run(last - 1);
      db.close();

      const verification = await auditVerify(loadConfig({ DATA_DIR: replica.dataDir, ...adapterEnv(replica.dataDir) }));

      expect(verification.ok).toBe(false);
      expect(verification.broken?.position).toBe(last);
    });
  });
});
