import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '../../src/infrastructure/event-store/sqlite/sqlite-event-store';

interface Ack {
  streamId: string;
  nextExpectedRevision: number;
  position: number;
  eventIds: string[];
}

const ROOT = join(__dirname, '..', '..');
const CHILD = join(ROOT, 'test', 'support', 'durability-child.ts');
const KILL_AFTER_ACKS = 300;

/** Runs the child until KILL_AFTER_ACKS appends were acknowledged, then SIGKILLs it. */
function runAndKill(file: string): Promise<{ acks: Ack[]; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', 'ts-node/register', CHILD, file], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acks: Ack[] = [];
    let buffered = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? ''; // a trailing partial line is not an acknowledgement yet
      for (const line of lines) acks.push(JSON.parse(line) as Ack);
      if (acks.length >= KILL_AFTER_ACKS) child.kill('SIGKILL');
    });
    child.on('error', reject);
    // 'close' waits for stdout to drain, so acks printed just before the kill are counted too.
    child.on('close', (_code, signal) => resolve({ acks, signal, stderr }));
  });
}

describe('SqliteEventStore durability', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'event-store-durability-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('given a burst of appends killed with SIGKILL, when reopening, then every acknowledged append is there', async () => {
    const file = join(dir, 'events.db');

    const { acks, signal, stderr } = await runAndKill(file);

    expect({ signal, stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    expect(acks.length).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    const store = new SqliteEventStore({ file });
    try {
      const streams = new Map<string, Awaited<ReturnType<typeof store.readStream>>>();
      for (const streamId of new Set(acks.map((a) => a.streamId))) {
        streams.set(streamId, await store.readStream(streamId));
      }

      for (const ack of acks) {
        const events = streams.get(ack.streamId) ?? [];
        const first = ack.nextExpectedRevision - ack.eventIds.length + 1;
        const stored = events.slice(first, ack.nextExpectedRevision + 1);
        expect(stored.map((e) => e.metadata.eventId)).toEqual(ack.eventIds);
        expect(stored[stored.length - 1].position).toBe(ack.position);
      }
      for (const events of streams.values()) {
        expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
        events.slice(1).forEach((e, i) => expect(e.position).toBeGreaterThan(events[i].position));
      }
    } finally {
      await store.close();
    }
  });
});
