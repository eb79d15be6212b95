/**
 * The hive contest over HTTP: info, MCP snippet, join (idempotent, race-safe,
 * 1-spark award once), scoring-event ingestion → saga → wallet → leaderboards,
 * bad input, and a rebuild of the contest read models from zero.
 */
import { request as httpRequest } from 'node:http';
import { loadConfig } from '../../src/config/config';
import { UpcasterRegistry } from '../../src/infrastructure/eventsourcing/upcasters';
import { createEventStore, createReadStore } from '../../src/infrastructure/ports.factory';
import { ProjectionRegistry } from '../../src/infrastructure/projections/projection-registry';
import { ProjectionEngine } from '../../src/infrastructure/projections/projection-engine';
import {
  CONTEST_PROFILES,
  CONTEST_TRACK_SCORES,
  CONTEST_WALLETS,
  contestLeaderboardProjection,
} from '../../src/projections/contest/contest-leaderboard.projection';
import { adapterEnv } from '../support/adapters';
import { settled, startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const WINDOW = { SVC_CONTEST_START: '2026-01-01T00:00:00', SVC_CONTEST_END: '2099-01-01T00:00:00' };
const INSIDE = '2026-06-01T00:00:00Z';

describe('hive contest over HTTP', () => {
  let t: TestApp;
  let admin: string;
  const saved = { start: process.env.SVC_CONTEST_START, end: process.env.SVC_CONTEST_END };

  beforeAll(async () => {
    process.env.SVC_CONTEST_START = WINDOW.SVC_CONTEST_START;
    process.env.SVC_CONTEST_END = WINDOW.SVC_CONTEST_END;
    t = await startTestApp({ SVC_ADMIN_USERS: 'contestadmin', ...WINDOW });
    admin = (await register('contestadmin')).token;
  });
  afterAll(async () => {
    await t?.close();
    process.env.SVC_CONTEST_START = saved.start;
    process.env.SVC_CONTEST_END = saved.end;
  });

  async function register(username = uniqueName('c')): Promise<{ id: string; token: string; username: string }> {
    const res = await t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery', display_name: `D ${username}` },
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.id, token: res.body.data.token, username };
  }

  const report = (body: Record<string, unknown>, token = admin) => t.request('POST', '/api/hive/contest/events', { body, token });
  const board = (query = '') => t.request('GET', `/api/hive/contest/leaderboard${query}`);

  async function walletOf(userId: string, track = ''): Promise<any> {
    const res = await board(`?limit=200${track ? `&track=${track}` : ''}`);
    return res.body.data.find((e: { user_id: string }) => e.user_id === userId);
  }

  /** fetch does not let a test set Host: plain node:http does. */
  function getWithHost(path: string, host: string): Promise<{ status: number; type: string; text: string }> {
    const { hostname, port } = new URL(t.url);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ hostname, port, path, method: 'GET', headers: { host } }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), text }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  describe('GET /info', () => {
    it('returns the info record with the window from the environment, tracks, weights and the MCP on-ramp', async () => {
      const res = await getWithHost('/api/hive/contest/info', 'hive.example.org:6777');
      expect(res.status).toBe(200);
      const info = JSON.parse(res.text).data;
      for (const field of ['name', 'tagline', 'humans_first_principle', 'co_creation_principle', 'public_url']) {
        expect(typeof info[field]).toBe('string');
      }
      expect(info.starts_at).toBe('2026-01-01T00:00:00.000Z');
      expect(info.ends_at).toBe('2099-01-01T00:00:00.000Z');
      expect(info.tracks.map((x: { id: string }) => x.id)).toEqual(['digital', 'embodied', 'human_wellness']);
      for (const track of info.tracks) {
        expect(track).toEqual({ id: expect.any(String), name: expect.any(String), description: expect.any(String), example_contributions: expect.any(Array) });
      }
      expect(info.score_weights.benchmarks_proven).toMatchObject({ digital: 25, human_wellness: 15 });
      expect(info.score_weights.robot_episode_success).toMatchObject({ embodied: 75 });
      expect(Array.isArray(info.how_to_join)).toBe(true);
      expect(info.prize_model).toEqual({ spark_split_90_9_1: expect.anything(), recognition: expect.any(String) });
      expect(info.onramp.mcp_config_url).toBe('http://hive.example.org:6777/api/hive/contest/claude-code.mcp');
    });
  });

  describe('GET /claude-code.mcp', () => {
    it('serves text holding an mcpServers object that points at the host the client used', async () => {
      const res = await getWithHost('/api/hive/contest/claude-code.mcp', 'node7.example.net:6777');
      expect(res.status).toBe(200);
      expect(res.type).toMatch(/^text\/plain/);
      const servers = JSON.parse(res.text).mcpServers;
      expect(Object.values(servers)[0]).toMatchObject({ url: 'http://node7.example.net:6777/mcp' });
    });

    it('ignores a malformed Host header', async () => {
      const res = await getWithHost('/api/hive/contest/claude-code.mcp', 'evil"/><x');
      expect(res.status === 400 || (res.text.includes('localhost:6777') && !res.text.includes('evil'))).toBe(true);
    });
  });

  describe('POST /join', () => {
    it('needs authentication', async () => {
      const res = await t.request('POST', '/api/hive/contest/join', { body: { track: 'digital' } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'unauthenticated' });
    });

    it.each([
      ['an unknown track', { track: 'cooking' }],
      ['a missing track', {}],
      ['a number as track', { track: 3 }],
      ['an object as track', { track: { $ne: null } }],
    ])('given %s, then 400', async (_, body) => {
      const user = await register();
      const res = await t.request('POST', '/api/hive/contest/join', { body, token: user.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/track/);
    });

    it('registers once, returns the same receipt on repeat, keeps the first track, and awards 1 spark once', async () => {
      const user = await register();
      const first = await t.request('POST', '/api/hive/contest/join', { body: { track: 'embodied' }, token: user.token });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ok: true, already_registered: false, track: 'embodied', joined_at: expect.any(String) });
      const again = await t.request('POST', '/api/hive/contest/join', { body: { track: 'embodied' }, token: user.token });
      expect(again.body).toEqual({ ...first.body, already_registered: true });
      const other = await t.request('POST', '/api/hive/contest/join', { body: { track: 'digital' }, token: user.token });
      expect(other.status).toBe(200);
      expect(other.body).toEqual({ ...first.body, already_registered: true });

      const overall = await walletOf(user.id);
      expect(overall).toMatchObject({ season_spark: 1, score: 1, track: 'overall', username: user.username, display_name: `D ${user.username}` });
      expect(await walletOf(user.id, 'embodied')).toMatchObject({ score: 1, season_spark: 1, track: 'embodied' });
      expect(await walletOf(user.id, 'digital')).toBeUndefined();
      // the saga also reacts to ContestJoined: once it and the read models are done, still 1 spark
      await settled(t);
      expect((await walletOf(user.id)).season_spark).toBe(1);
    });

    it('given concurrent joins of one user, then one entry, one receipt, one spark', async () => {
      const user = await register();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          t.request('POST', '/api/hive/contest/join', { body: { track: i % 2 ? 'digital' : 'human_wellness' }, token: user.token }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(results.filter((r) => r.body.already_registered === false)).toHaveLength(1);
      const receipts = new Set(results.map((r) => `${r.body.track}|${r.body.joined_at}`));
      expect(receipts.size).toBe(1);
      await settled(t);
      expect((await walletOf(user.id)).season_spark).toBe(1);
    });
  });

  describe('POST /events (scoring-event ingestion)', () => {
    let player: { id: string; token: string; username: string };
    beforeAll(async () => {
      player = await register();
    });

    const valid = () => ({ event_type: 'recipe_published', source_id: uniqueName('r'), user_id: player.id, attested: true, occurred_at: INSIDE });

    it('needs an admin or operator', async () => {
      expect((await t.request('POST', '/api/hive/contest/events', { body: valid() })).status).toBe(401);
      expect((await report(valid(), player.token)).status).toBe(403);
    });

    it.each([
      ['an unknown event type', { event_type: 'likes_received' }, /event_type/],
      ['a missing attested', { attested: undefined }, /attested/],
      ['attested as a string', { attested: 'true' }, /attested/],
      ['an object as source id', { source_id: { $gt: '' } }, /source_id/],
      ['a source id with spaces', { source_id: 'a b' }, /source_id/],
      ['a missing user id', { user_id: undefined }, /user_id/],
      ['a robot episode without success rate', { event_type: 'robot_episode_success' }, /success_rate/],
      ['a success rate above 1', { event_type: 'robot_episode_success', success_rate: 1.5 }, /success_rate/],
      ['a success rate as string', { event_type: 'robot_episode_success', success_rate: '0.9' }, /success_rate/],
      ['a malformed occurred_at', { occurred_at: 'yesterday' }, /occurred_at/],
    ])('given %s, then 400 naming the field', async (_, override, message) => {
      const res = await report({ ...valid(), ...override });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(message);
    });

    it('given an unknown user, then 404', async () => {
      expect((await report({ ...valid(), user_id: 'no-such-user' })).status).toBe(404);
    });

    it('records the event, the saga awards spark by the weights, a repeat is a no-op', async () => {
      const user = await register();
      const body = { event_type: 'benchmarks_proven', source_id: uniqueName('b'), user_id: user.id, attested: true, occurred_at: INSIDE };
      const res = await report(body);
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ event_type: 'benchmarks_proven', user_id: user.id, recorded: true });
      const repeat = await report(body);
      expect(repeat.status).toBe(202);
      expect(repeat.body.data.recorded).toBe(false);
      expect((await report({ ...body, user_id: player.id })).status).toBe(409);

      const overall = await eventually('40 spark in the wallet', () => walletOf(user.id), (w) => w?.season_spark === 40);
      expect(overall).toMatchObject({ season_spark: 40, score: 40 });
      expect(await walletOf(user.id, 'digital')).toMatchObject({ score: 25, season_spark: 40 });
      expect(await walletOf(user.id, 'human_wellness')).toMatchObject({ score: 15 });
      expect(await walletOf(user.id, 'embodied')).toBeUndefined();
    });

    it('unattested, out-of-window and sub-0.7 episodes score zero; a 0.7 episode scores 75', async () => {
      const user = await register();
      const base = { user_id: user.id, attested: true, occurred_at: INSIDE };
      expect((await report({ ...base, event_type: 'wellness_outcome_attested', source_id: uniqueName('w'), attested: false })).status).toBe(202);
      expect((await report({ ...base, event_type: 'agent_adopted', source_id: uniqueName('a'), occurred_at: '2025-12-31T23:59:59Z' })).status).toBe(202);
      expect((await report({ ...base, event_type: 'robot_episode_success', source_id: uniqueName('e'), success_rate: 0.69 })).status).toBe(202);
      expect((await report({ ...base, event_type: 'robot_episode_success', source_id: uniqueName('e'), success_rate: 0.7 })).status).toBe(202);
      await settled(t);
      expect(await walletOf(user.id)).toMatchObject({ season_spark: 75 });
      expect(await walletOf(user.id, 'embodied')).toMatchObject({ score: 75 });
    });
  });

  describe('GET /leaderboard', () => {
    it.each([['?track=cooking'], ['?limit=0'], ['?limit=201'], ['?limit=abc'], ['?limit=1.5'], ['?track=digital&track=embodied']])(
      'given %s, then 400',
      async (query) => {
        const res = await board(query);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
      },
    );

    it('ranks by score, ties by who reached it first, with the entry fields and meta', async () => {
      const a = await register();
      const b = await register();
      const c = await register();
      const give = (user: string, type: string, extra: Record<string, unknown> = {}) =>
        report({ event_type: type, source_id: uniqueName('s'), user_id: user, attested: true, occurred_at: INSIDE, ...extra });
      await give(c.id, 'wellness_outcome_attested'); // 120 hw
      await eventually('c at 120 on human_wellness', () => walletOf(c.id, 'human_wellness'), (x) => x?.score === 120);
      await give(b.id, 'wellness_outcome_attested'); // 120 hw, reached later than c
      await eventually('b at 120 on human_wellness', () => walletOf(b.id, 'human_wellness'), (x) => x?.score === 120);
      await give(a.id, 'human_correction_accepted'); // 30 hw
      await eventually('a at 30 on human_wellness', () => walletOf(a.id, 'human_wellness'), (x) => x?.score === 30);

      const res = await board('?track=human_wellness&limit=200');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ track: 'human_wellness', count: res.body.data.length });
      const ours = res.body.data.filter((e: { user_id: string }) => [a.id, b.id, c.id].includes(e.user_id));
      expect(ours.map((e: { user_id: string }) => e.user_id)).toEqual([c.id, b.id, a.id]);
      const ranks = res.body.data.map((e: { rank: number }) => e.rank);
      expect(ranks).toEqual(ranks.map((_: number, i: number) => i + 1));
      expect(Object.keys(ours[0]).sort()).toEqual(
        ['rank', 'user_id', 'username', 'display_name', 'avatar_url', 'season_pulse', 'season_spark', 'level', 'level_title', 'score', 'track'].sort(),
      );
      expect(ours[0]).toMatchObject({ username: c.username, season_spark: 120, score: 120, track: 'human_wellness', season_pulse: 0 });
      const scores = res.body.data.map((e: { score: number }) => e.score);
      expect(scores).toEqual([...scores].sort((x: number, y: number) => y - x));

      const overall = await board('?limit=2');
      expect(overall.body.meta).toEqual({ track: 'overall', count: 2 });
      expect(overall.body.data).toHaveLength(2);
      const all = await board();
      expect(all.body.data.length).toBeLessThanOrEqual(50);
      const sparks = all.body.data.map((e: { season_spark: number }) => e.season_spark);
      expect(sparks).toEqual([...sparks].sort((x: number, y: number) => y - x));
    });
  });

  describe('rebuild', () => {
    it('rebuilding the contest read models from zero gives the same wallets and leaderboards', async () => {
      const user = await register();
      await t.request('POST', '/api/hive/contest/join', { body: { track: 'digital' }, token: user.token });
      await report({ event_type: 'season_spark', source_id: uniqueName('s'), user_id: user.id, attested: true, occurred_at: INSIDE });
      await settled(t);
      expect((await walletOf(user.id)).season_spark).toBe(4);
      await t.close(false);
      const dir = t.dataDir;
      const config = loadConfig({ DATA_DIR: dir, ...adapterEnv(dir) });

      const readStore = await createReadStore(config);
      const snapshot = async () => ({
        wallets: await readStore.collection(CONTEST_WALLETS).find({}, { sort: { _id: 1 } }),
        tracks: await readStore.collection(CONTEST_TRACK_SCORES).find({}, { sort: { _id: 1 } }),
        profiles: await readStore.collection(CONTEST_PROFILES).find({}, { sort: { _id: 1 } }),
      });
      const live = await snapshot();
      expect(live.wallets.length).toBeGreaterThan(3);
      const eventStore = await createEventStore(config, new UpcasterRegistry(), null); // the contest's events hold no personal field
      const registry = new ProjectionRegistry([contestLeaderboardProjection]);
      const { events } = await new ProjectionEngine(eventStore, readStore, registry).rebuild([contestLeaderboardProjection]);
      expect(events).toBeGreaterThan(0);
      expect(await snapshot()).toEqual(live);
      await readStore.close();
      await eventStore.close();
      // reopen for afterAll's close
      t = await startTestApp({ SVC_ADMIN_USERS: 'contestadmin', ...WINDOW }, dir);
      expect((await walletOf(user.id)).season_spark).toBe(4);
    });
  });
});

describe('the contest window of a node without SVC_CONTEST_START', () => {
  it('given a node that started once, when it restarts later, then starts_at and ends_at are those of its first start', async () => {
    const first = await startTestApp();
    const before = (await first.request('GET', '/api/hive/contest/info')).body.data;
    await first.close(false);
    const again = await startTestApp({}, first.dataDir);
    try {
      const after = (await again.request('GET', '/api/hive/contest/info')).body.data;
      expect({ starts_at: after.starts_at, ends_at: after.ends_at }).toEqual({ starts_at: before.starts_at, ends_at: before.ends_at });
    } finally {
      await again.close();
    }
  });

  it('given a node that fixed its window, when it restarts with SVC_CONTEST_END, then the end is the configured one and the start stays', async () => {
    const first = await startTestApp();
    const before = (await first.request('GET', '/api/hive/contest/info')).body.data;
    await first.close(false);
    const again = await startTestApp({ SVC_CONTEST_END: '2099-06-01T00:00:00' }, first.dataDir);
    try {
      const after = (await again.request('GET', '/api/hive/contest/info')).body.data;
      expect({ starts_at: after.starts_at, ends_at: after.ends_at }).toEqual({ starts_at: before.starts_at, ends_at: '2099-06-01T00:00:00.000Z' });
    } finally {
      await again.close();
    }
  });
});
