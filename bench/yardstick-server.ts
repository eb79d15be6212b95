/**
 * Child-process entry of section 8: the yardstick route of
 * shared/reference/performance-notes.md, bare, without the service.
 *
 *   POST /api/social/encounter/sighting (the service's route, the same body):
 *   verify an HS256 bearer token with fast-jwt (cache on), check the JSON body
 *   by hand, append one SightingRecorded event to SQLite (better-sqlite3, WAL,
 *   synchronous=FULL, the event store's table) with group commit (appends are
 *   queued and written in one transaction per setImmediate flush), answer JSON.
 *
 * Fastify is the one the app runs on: resolved from @nestjs/platform-fastify's
 * own dependencies, so the yardstick and the app use the same version.
 *
 * Protocol (IPC), as bench/http-server.ts: child → { type: 'ready', url, token,
 * fastifyVersion } | { type: 'error', message }; parent → { type: 'close' } →
 * the child reports { type: 'stats', commits, events } and exits 0.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { createSigner, createVerifier } from 'fast-jwt';
import type { FastifyInstance } from 'fastify';

export type YardstickMessage =
  | { type: 'ready'; url: string; token: string; fastifyVersion: string }
  | { type: 'stats'; commits: number; events: number }
  | { type: 'error'; message: string };

const HEX = /^[0-9a-f]{16,128}$/i;

interface Pending {
  streamId: string;
  data: string;
  metadata: string;
  eventId: string;
  resolve: (position: number) => void;
  reject: (error: unknown) => void;
}

/** The app's Fastify: the copy @nestjs/platform-fastify depends on. */
function appFastify(): { fastify: (options?: object) => FastifyInstance; version: string } {
  const platform = dirname(require.resolve('@nestjs/platform-fastify/package.json'));
  const entry = require.resolve('fastify', { paths: [platform] });
  const pkg = require.resolve('fastify/package.json', { paths: [platform] });
  return { fastify: require(entry) as (options?: object) => FastifyInstance, version: (require(pkg) as { version: string }).version };
}

/** One transaction per setImmediate flush for every append queued meanwhile. */
class GroupCommitLog {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private queue: Pending[] = [];
  private scheduled = false;
  commits = 0;
  events = 0;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, revision INTEGER NOT NULL,
      event_id TEXT NOT NULL UNIQUE, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL,
      recorded_at TEXT NOT NULL, UNIQUE (stream_id, revision))`);
    this.insert = this.db.prepare(
      "INSERT INTO events (stream_id, revision, event_id, type, data, metadata, recorded_at) VALUES (?, 0, ?, 'SightingRecorded', ?, ?, ?)",
    );
  }

  append(streamId: string, data: object, metadata: object & { eventId: string }): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ streamId, data: JSON.stringify(data), metadata: JSON.stringify(metadata), eventId: metadata.eventId, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    const recordedAt = new Date().toISOString();
    try {
      const positions = this.db.transaction(() =>
        batch.map((p) => Number(this.insert.run(p.streamId, p.eventId, p.data, p.metadata, recordedAt).lastInsertRowid)),
      )();
      this.commits++;
      this.events += batch.length;
      batch.forEach((p, i) => p.resolve(positions[i]));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  close(): void {
    this.db.close();
  }
}

function send(message: YardstickMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir) throw new Error('BENCH_DATA_DIR is not set');
  const secret = randomBytes(32);
  const userId = randomUUID();
  const token = createSigner({ key: secret, algorithm: 'HS256', expiresIn: 3_600_000 })({ sub: userId, role: 'user' });
  const verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: true });
  const log = new GroupCommitLog(join(dataDir, 'yardstick-events.db'));

  const { fastify, version } = appFastify();
  const app = fastify({ logger: false });
  app.post('/api/social/encounter/sighting', async (request, reply) => {
    const header = request.headers.authorization;
    let claims: { sub?: unknown };
    try {
      if (!header?.startsWith('Bearer ')) throw new Error('no bearer token');
      claims = verify(header.slice(7)) as { sub?: unknown };
      if (typeof claims.sub !== 'string') throw new Error('no subject');
    } catch {
      return reply.code(401).send({ success: false, error: 'Unauthorized' });
    }
    const body = request.body as Record<string, unknown> | null;
    const peer = body?.peer_pubkey;
    const rssi = body?.rssi_peak ?? 0;
    const dwell = body?.dwell_sec ?? 0;
    if (typeof peer !== 'string' || !HEX.test(peer)) return reply.code(400).send({ success: false, error: 'peer_pubkey required (hex, >=16 chars)' });
    if (!Number.isInteger(rssi) || !Number.isInteger(dwell)) return reply.code(400).send({ success: false, error: 'rssi_peak and dwell_sec must be integers' });

    const sightingId = `sight_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
    const at = new Date().toISOString();
    const data = { sighting_id: sightingId, user_id: claims.sub, peer_pubkey: peer.toLowerCase(), rssi_peak: rssi, dwell_sec: Math.max(0, dwell as number), at };
    const metadata = { eventId: randomUUID(), correlationId: request.id, causationId: null, actor: claims.sub, nodeId: 'yardstick', occurredAt: at, schemaVersion: 1 };
    const position = await log.append(`sighting-${sightingId}`, data, metadata);
    return { success: true, data: { sighting_id: sightingId, position } };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };

  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    await app.close();
    log.close();
    const stats: YardstickMessage = { type: 'stats', commits: log.commits, events: log.events };
    if (process.send && process.connected) process.send(stats, () => process.exit(0));
    else process.exit(0);
  };
  process.on('message', (message: { type?: string }) => {
    if (message?.type === 'close') void close();
  });
  process.on('disconnect', () => void close());
  send({ type: 'ready', url: `http://127.0.0.1:${address.port}`, token, fastifyVersion: version });
}

main().catch((error: unknown) => {
  send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
