/**
 * Child process for test/contract/event-store.durability.spec.ts.
 * Usage: node -r ts-node/register durability-child.ts <db-file>
 *
 * 32 concurrent writers append to a few streams until the process is killed,
 * printing one JSON line per append right after its promise resolved, i.e. after
 * the store acknowledged it as durable. The parent SIGKILLs us mid-burst and
 * checks that every acknowledged append survived.
 */
import { randomUUID } from 'node:crypto';
import { NewEvent, WrongExpectedRevisionError } from '../../src/infrastructure/event-store/event-store.port';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';

const WRITERS = 32;
const STREAMS = ['durability-a', 'durability-b', 'durability-c', 'durability-d'];
// Guard against an orphan if the parent dies without killing us.
setTimeout(() => process.exit(2), 20_000).unref();
process.stdout.on('error', () => process.exit(3));

const store = new SqliteEventStore({ file: process.argv[2] });

async function writer(id: number): Promise<never> {
  const streamId = STREAMS[id % STREAMS.length];
  for (let n = 0; ; n++) {
    const events = Array.from({ length: 1 + (n % 3) }, () => newEvent(id, n));
    // Half the writers use optimistic concurrency (and retry on conflict), half use 'any'.
    const result = await appendWithRetry(streamId, events, id % 2 === 0);
    // stdout to a pipe is synchronous on Linux: the line is out before the next await.
    process.stdout.write(
      JSON.stringify({ streamId, ...result, eventIds: events.map((e) => e.metadata.eventId) }) + '\n',
    );
  }
}

async function appendWithRetry(streamId: string, events: NewEvent[], optimistic: boolean) {
  for (;;) {
    const [last] = optimistic ? await store.readStream(streamId, { direction: 'backwards', maxCount: 1 }) : [];
    const expected = !optimistic ? 'any' : last ? last.revision : 'no_stream';
    try {
      return await store.append(streamId, events, expected);
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
    }
  }
}

function newEvent(writerId: number, n: number): NewEvent {
  return {
    type: 'DurabilityProbed',
    data: { writerId, n },
    metadata: {
      eventId: randomUUID(),
      correlationId: randomUUID(),
      causationId: null,
      actor: 'system:durability-child',
      nodeId: `child-${process.pid}`,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    },
  };
}

Promise.all(Array.from({ length: WRITERS }, (_, id) => writer(id))).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
