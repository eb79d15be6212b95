/**
 * Section 12: regional replay (issue 17, item 2).
 *
 * Generates the account log of section 2 into a central node's DATA_DIR,
 * starts central (auto-accept) and a regional node as two app processes,
 * and times the regional node's replication: pages of GET /federation/log
 * over HTTP, signed, appended with their ids and revisions, checkpointed,
 * while its projections build from the replicated log. Yardstick: reading
 * the same log locally, in pages of the same size (`readSealed`, what the
 * export reads), with no HTTP, append or projection work.
 *
 * Then writes at the regional node: POST /posts by one user for
 * `writeSeconds` with `writeConnections` connections, each answered once
 * central ran it (the sync queue's batch, inject there) and the regional
 * node replicated it and caught up (regional-writes.ts). Yardstick: the
 * same POST /posts at central, on the same two processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { CHECKPOINT_FILE } from '../src/infrastructure/federation/replication-checkpoint';
import { cannon, type HttpRun, printRun, type Server, startServer } from './http.bench';
import { generate } from './replay.bench';
import { fixed, heading, int, log, makeTempDir, now, ratio, removeTempDir, secondsSince, sleep } from './util';

export interface FederationBenchOptions {
  events: number;
  pageSize: number;
  writeSeconds: number;
  writeConnections: number;
}

export interface FederationBenchResult {
  events: number;
  replay: { seconds: number; eventsPerSecond: number };
  localRead: { seconds: number; eventsPerSecond: number };
  /** POST /posts at the regional node (through central) and, as the yardstick, at central */
  writes: { regional: HttpRun; central: HttpRun };
}

const JWT_SECRET = 'federation-bench-secret-of-at-least-32-characters';

const checkpointOf = (dir: string): number => {
  const file = join(dir, CHECKPOINT_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { position: number }).position : 0;
};

export async function runFederationBench(options: FederationBenchOptions): Promise<FederationBenchResult> {
  heading('12. Regional replay (GET /federation/log → appendReplicated, two app processes) vs reading the log locally');
  const centralDir = makeTempDir('federation-central');
  const regionalDir = makeTempDir('federation-regional');
  const servers: Server[] = [];
  try {
    const seed = new SqliteEventStore({ file: join(centralDir, 'events.db') });
    const generated = await generate(seed, options.events, 1000);
    const head = await seed.headPosition();
    await seed.close();
    log(`  central log: ${int(generated.events)} account events on ${int(generated.streams)} streams, head ${int(head)}`);

    const central = await startServer(centralDir, { SVC_NODE_ID: 'bench-central', SVC_NODE_TIER: 'central', FEDERATION_AUTO_ACCEPT: '1', JWT_SECRET });
    servers.push(central);

    // yardstick: the export's read, locally, in pages of the same size
    const local = new SqliteEventStore({ file: join(centralDir, 'events.db') });
    const readStart = now();
    let read = 0;
    for (let after = 0; ; ) {
      const page = await local.readSealed({ after, maxCount: options.pageSize });
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1].position;
    }
    const readSeconds = secondsSince(readStart);
    await local.close();

    const regional = await startServer(regionalDir, {
      SVC_NODE_ID: 'bench-regional',
      SVC_NODE_TIER: 'regional',
      FEDERATION_UPSTREAM_URL: central.url,
      FEDERATION_PAGE_SIZE: String(options.pageSize),
      JWT_SECRET,
    });
    servers.push(regional);
    // timed from the first checkpoint seen, so the app's start is not counted
    let first = checkpointOf(regionalDir);
    while (first === 0) {
      await sleep(5);
      first = checkpointOf(regionalDir);
    }
    const replayStart = now();
    // central's own log is a little longer than the generated one (its contest window): replay up to what the yardstick read
    while (checkpointOf(regionalDir) < read) await sleep(5);
    const replaySeconds = secondsSince(replayStart);
    const replayed = read - first;
    const replayRate = replayed / replaySeconds;
    const readRate = read / readSeconds;
    log(`  regional replay: ${int(replayed)} events in ${fixed(replaySeconds, 2)} s = ${int(replayRate)} events/s (pages of ${int(options.pageSize)}; its projections building alongside)`);
    log(`  yardstick: readSealed pages of ${int(options.pageSize)} on central's file: ${int(read)} events in ${fixed(readSeconds, 2)} s = ${int(readRate)} events/s`);
    log(`  ratio replay / local read: ${ratio(replayRate, readRate)}`);

    const writes = await regionalWrites(central.url, regional.url, options);
    return { events: replayed, replay: { seconds: replaySeconds, eventsPerSecond: replayRate }, localRead: { seconds: readSeconds, eventsPerSecond: readRate }, writes };
  } finally {
    for (const server of servers.reverse()) await server.stop();
    removeTempDir(regionalDir);
    removeTempDir(centralDir);
  }
}

/** POST /posts by one user at the regional node, then at central, for the same time each. */
async function regionalWrites(centralUrl: string, regionalUrl: string, options: FederationBenchOptions): Promise<{ regional: HttpRun; central: HttpRun }> {
  const username = `benchwriter${Date.now().toString(36)}`;
  const registered = await fetch(`${centralUrl}/api/social/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'correct horse battery' }),
  });
  if (registered.status !== 201) throw new Error(`registering the bench writer: ${registered.status} ${await registered.text()}`);
  const { data } = (await registered.json()) as { data: { id: string; token: string } };
  const post = (url: string) => ({
    url: `${url}/api/social/posts`,
    method: 'POST' as const,
    connections: options.writeConnections,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${data.token}` },
    body: JSON.stringify({ title: 'a post of the bench', content: 'written at one node, read at both' }),
  });
  // the writer's account reaches the regional node through replication before it writes there
  while ((await fetch(`${regionalUrl}/api/social/users/${data.id}`)).status !== 200) await sleep(20);
  const regional = await cannon('POST /posts at the regional node', post(regionalUrl), options.writeSeconds);
  printRun(regional, options.writeSeconds);
  const central = await cannon('POST /posts at central', post(centralUrl), options.writeSeconds);
  printRun(central, options.writeSeconds);
  log(`  ratio regional / central writes: ${ratio(regional.requestsPerSecond, central.requestsPerSecond)}`);
  return { regional, central };
}
