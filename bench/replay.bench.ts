/**
 * Section 2: projection replay.
 *
 * Generates a realistic account log (registrations with their username/e-mail
 * claims, guests, logins, failed logins, token revocations, role changes) into
 * a temp SqliteEventStore, then times ProjectionEngine.rebuild of the `users`
 * projection into a fresh file-backed EmbeddedReadStore, against reading the
 * same log with readAll pages only (no projection work).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { claimStreamId } from '../src/aggregates/accounts/claim';
import { type Role, type UserEvent, userStreamId } from '../src/aggregates/accounts/user.events';
import type { AppendResult, EventMetadata, NewEvent } from '../src/infrastructure/event-store/event-store.port';
import { NO_STREAM } from '../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../src/infrastructure/event-store/sqlite/sqlite-event-store';
import { ProjectionEngine } from '../src/infrastructure/projections/projection-engine';
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';
import { ALL_PROJECTIONS } from '../src/projections';
import { USERS, usersProjection } from '../src/projections/accounts/users.projection';
import { fixed, heading, int, log, makeTempDir, now, progress, prng, ratio, removeTempDir, secondsSince } from './util';

export interface ReplayBenchOptions {
  events: number;
  /** events issued per group-commit batch while generating the log */
  writeBatch: number;
  /** page size of the rebuild and of the readAll yardstick (the rebuild's default) */
  pageSize: number;
}

export interface ReplayBenchResult {
  events: number;
  users: number;
  generateSeconds: number;
  rebuild: { seconds: number; eventsPerSecond: number; documents: number };
  readAll: { seconds: number; eventsPerSecond: number };
}

export interface Pending {
  streamId: string;
  event: NewEvent;
}

interface GeneratedUser {
  id: string;
  role: Role;
  guest: boolean;
  tokens: string[];
}

const NODE_ID = 'bench-node';
const ROLE_CHANGES: Role[] = ['operator', 'agent', 'admin', 'user'];

/**
 * An interleaved timeline of account activity: about one new account per five
 * events; the rest are logins (most), failed logins, logouts and role changes
 * of existing accounts. Deterministic apart from ids and hashes.
 */
export function* generateEvents(total: number): Generator<Pending> {
  const random = prng(20240611);
  const users: GeneratedUser[] = [];
  let clock = Date.parse('2025-01-01T00:00:00.000Z');
  let produced = 0;

  const metadata = (actor: string, correlationId: string, causationId: string | null): EventMetadata => ({
    eventId: randomUUID(),
    correlationId,
    causationId,
    actor,
    nodeId: NODE_ID,
    occurredAt: new Date(clock).toISOString(),
    schemaVersion: 1,
  });
  const userEvent = (user: GeneratedUser, event: UserEvent, correlationId = randomUUID()): Pending => ({
    streamId: userStreamId(user.id),
    event: { type: event.type, data: event.data as unknown as NewEvent['data'], metadata: metadata(user.id, correlationId, null) },
  });

  while (produced < total) {
    clock += 1 + Math.floor(random() * 2000);
    const at = new Date(clock).toISOString();
    const n = users.length;
    const r = random();

    if (n < 20 || r < 0.12) {
      // a registration: human (claims + UserRegistered) or guest
      const id = randomUUID();
      const correlationId = randomUUID();
      const number = n + 1;
      if (random() < 0.8) {
        const user: GeneratedUser = { id, role: 'user', guest: false, tokens: [] };
        const username = `user_${number.toString(36)}_${id.slice(0, 4)}`;
        const email = `${username}@example.com`;
        for (const [scope, value] of [
          ['username', username],
          ['email', email],
        ] as const) {
          const type = scope === 'username' ? 'UsernameClaimed' : 'EmailClaimed';
          yield {
            streamId: claimStreamId(scope, value),
            event: { type, data: { value, owner_id: id, claimed_at: at }, metadata: metadata(id, correlationId, null) },
          };
        }
        const salt = randomBytes(16).toString('base64').replace(/=+$/, '');
        const hash = randomBytes(32).toString('base64').replace(/=+$/, '');
        yield userEvent(
          user,
          {
            type: 'UserRegistered',
            data: {
              user_id: id,
              username,
              email,
              display_name: `User ${number}`,
              role: 'user',
              user_type: 'human',
              password_hash: `$argon2id$v=19$m=19456,t=2,p=1$${salt}$${hash}`,
              registered_at: at,
            },
          },
          correlationId,
        );
        users.push(user);
        produced += 3;
      } else {
        const user: GeneratedUser = { id, role: 'guest', guest: true, tokens: [] };
        yield userEvent(
          user,
          {
            type: 'GuestRegistered',
            data: {
              user_id: id,
              username: `guest_${number.toString(36)}_${id.slice(0, 4)}`,
              display_name: `Guest ${number}`,
              recovery_code_hash: randomBytes(32).toString('hex'),
              device_id: random() < 0.7 ? `device-${randomUUID()}` : null,
              registered_at: at,
            },
          },
          correlationId,
        );
        users.push(user);
        produced += 1;
      }
      continue;
    }

    // activity of an existing account, skewed towards recent accounts
    const user = users[n - 1 - Math.floor(Math.pow(random(), 2) * n)];
    if (user.guest) {
      if (r < 0.9) {
        const tokenId = randomUUID();
        user.tokens.push(tokenId);
        yield userEvent(user, {
          type: 'GuestRecovered',
          data: { user_id: user.id, token_id: tokenId, recovery_code_hash: randomBytes(32).toString('hex'), device_id: null, at },
        });
      } else {
        yield userEvent(user, { type: 'UserLoggedIn', data: { user_id: user.id, token_id: randomUUID(), method: 'device', at } });
      }
    } else if (r < 0.8) {
      const tokenId = randomUUID();
      user.tokens.push(tokenId);
      yield userEvent(user, { type: 'UserLoggedIn', data: { user_id: user.id, token_id: tokenId, method: 'password', at } });
    } else if (r < 0.9) {
      yield userEvent(user, { type: 'UserLoginFailed', data: { user_id: user.id, at } });
    } else if (r < 0.98 && user.tokens.length > 0) {
      const tokenId = user.tokens.shift() as string;
      const expiresAt = new Date(clock + 24 * 3600 * 1000).toISOString();
      yield userEvent(user, { type: 'TokenRevoked', data: { user_id: user.id, token_id: tokenId, expires_at: expiresAt, at } });
    } else {
      const previous = user.role;
      const role = ROLE_CHANGES.filter((x) => x !== previous)[Math.floor(random() * (ROLE_CHANGES.length - 1))];
      user.role = role;
      yield userEvent(user, { type: 'UserRoleChanged', data: { user_id: user.id, role, previous_role: previous, changed_by: 'system:bench', at } });
    }
    produced += 1;
  }
}

/**
 * Writes the log with SqliteEventStore.append: `writeBatch` appends issued in
 * the same tick share one transaction (group commit); each append carries the
 * stream's exact expected revision.
 */
export async function generate(store: SqliteEventStore, total: number, writeBatch: number): Promise<{ events: number; streams: number }> {
  const revisions = new Map<string, number>();
  const bar = progress('generate account events', total, 'events');
  let events = 0;
  let batch: Promise<AppendResult>[] = [];
  for (const { streamId, event } of generateEvents(total)) {
    const current = revisions.get(streamId);
    batch.push(store.append(streamId, [event], current === undefined ? NO_STREAM : current));
    revisions.set(streamId, (current ?? -1) + 1);
    events++;
    if (batch.length >= writeBatch) {
      await Promise.all(batch);
      batch = [];
      bar.update(events);
    }
  }
  await Promise.all(batch);
  bar.stop();
  return { events, streams: revisions.size };
}

export async function runReplayBench(options: ReplayBenchOptions): Promise<ReplayBenchResult> {
  heading('2. Projection replay (users projection, file-backed EmbeddedReadStore)');
  const dir = makeTempDir('replay');
  const eventStore = new SqliteEventStore({ file: join(dir, 'events.db') });
  try {
    const genStart = now();
    const generated = await generate(eventStore, options.events, options.writeBatch);
    const generateSeconds = secondsSince(genStart);
    const head = await eventStore.headPosition();
    const usersCount = await countUsers(eventStore, options.pageSize);
    log(
      `  generated ${int(generated.events)} account events on ${int(generated.streams)} streams ` +
        `(${int(usersCount)} accounts) in ${fixed(generateSeconds, 2)} s, ` +
        `${int(eventStore.stats.commits)} commits; head position ${int(head)}`,
    );

    // the rebuild: reset the read model, replay the whole log, flush the read store
    const readStore = new EmbeddedReadStore({ file: join(dir, 'read-models.db') });
    const runner = new ProjectionEngine(eventStore, readStore, { all: () => ALL_PROJECTIONS });
    const bar = progress('rebuild users', head, 'positions');
    const rebuildStart = now();
    const rebuilt = await runner.rebuild([usersProjection], (position) => bar.update(position), options.pageSize);
    const rebuildSeconds = secondsSince(rebuildStart);
    bar.stop();
    const documents = await readStore.collection(USERS).countDocuments({});
    await readStore.close();
    // the log's events per second (what a rebuild of this log takes), whatever share of them the projection handles
    const rebuildRate = generated.events / rebuildSeconds;
    log(
      `  ProjectionEngine.rebuild(users): the ${int(generated.events)}-event log in ${fixed(rebuildSeconds, 2)} s = ` +
        `${int(rebuildRate)} events/s (${int(rebuilt.events)} of them of the types users handles, read and applied; ${int(documents)} user documents)`,
    );
    if (documents !== usersCount) log(`  ! expected ${int(usersCount)} user documents, found ${int(documents)}`);

    // yardstick: the same pages, read and decoded, without any projection work
    const readStart = now();
    let read = 0;
    let after = 0;
    for (;;) {
      const page = await eventStore.readAll({ after, maxCount: options.pageSize });
      if (page.length === 0) break;
      read += page.length;
      after = page[page.length - 1].position;
    }
    const readSeconds = secondsSince(readStart);
    const readRate = read / readSeconds;
    log(`  yardstick: eventStore.readAll pages of ${int(options.pageSize)} only: ${int(read)} events in ${fixed(readSeconds, 2)} s = ${int(readRate)} events/s`);
    log(`  ratio rebuild / readAll: ${ratio(rebuildRate, readRate)}`);

    return {
      events: generated.events,
      users: usersCount,
      generateSeconds,
      rebuild: { seconds: rebuildSeconds, eventsPerSecond: rebuildRate, documents },
      readAll: { seconds: readSeconds, eventsPerSecond: readRate },
    };
  } finally {
    await eventStore.close();
    removeTempDir(dir);
  }
}

/** Accounts in the log (registration events), to check the rebuilt read model against. */
export async function countUsers(store: SqliteEventStore, pageSize: number): Promise<number> {
  let count = 0;
  let after = 0;
  for (;;) {
    const page = await store.readAll({ after, maxCount: pageSize });
    if (page.length === 0) return count;
    for (const e of page) if (e.type === 'UserRegistered' || e.type === 'GuestRegistered') count++;
    after = page[page.length - 1].position;
  }
}
