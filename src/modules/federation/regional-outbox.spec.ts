import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SyncQueueCommand } from '../../aggregates/federation/sync-queue';
import { RegionalOutbox } from './regional-outbox';

const NODE = 'region-eu';
const at = (seconds: number) => new Date(Date.UTC(2026, 11, 7, 12, 0, seconds));
const enqueue = (itemId: string, body = 'a write', cap = 10_000): SyncQueueCommand => ({
  kind: 'enqueue',
  itemId,
  nodeId: NODE,
  targetTier: 'central',
  operationType: 'regional_write',
  payload: { method: 'POST', path: '/api/social/posts', headers: { authorization: 'Bearer secret-token' }, body, client_ip: '203.0.113.9' },
  cap,
});
const startBatch: SyncQueueCommand = { kind: 'startBatch', nodeId: NODE, batchSize: 50, staleAfterMs: 20_000 };
const settle = (attempted: string[], processed: string[], batchError: string | null = null): SyncQueueCommand => ({ kind: 'settleBatch', nodeId: NODE, attempted, processed, errors: {}, batchError });

describe('RegionalOutbox: the sync queue of a regional node, kept in outbox.db', () => {
  const dirs: string[] = [];
  const outboxes: RegionalOutbox[] = [];
  const open = (dir = mkdtempSync(join(tmpdir(), 'svc-outbox-'))) => {
    dirs.push(dir);
    const outbox = new RegionalOutbox(dir);
    outboxes.push(outbox);
    return { outbox, dir };
  };
  afterEach(() => outboxes.splice(0).forEach((o) => o.close()));

  it('given queued writes, when the outbox is opened again, then they are there, oldest first', () => {
    const { outbox, dir } = open();
    outbox.execute(enqueue('rw:1'), at(1));
    outbox.execute(enqueue('rw:2'), at(2));
    outbox.close();
    outboxes.pop();

    const { outbox: again } = open(dir);

    expect([...again.state().items.values()].map((i) => [i.id, i.status])).toEqual([
      ['rw:1', 'queued'],
      ['rw:2', 'queued'],
    ]);
  });

  it('given a full outbox, when one more write comes, then it is dropped and counted', () => {
    const { outbox } = open();
    outbox.execute(enqueue('rw:1', 'x', 2), at(1));
    outbox.execute(enqueue('rw:2', 'x', 2), at(2));

    const { events, state } = outbox.execute(enqueue('rw:3', 'x', 2), at(3));

    expect(events.map((e) => e.type)).toEqual(['SyncItemDropped']);
    expect([state.items.size, state.dropped]).toEqual([2, 1]);
  });

  it('given two processes on one DATA_DIR, when both start a batch, then each item goes out in one batch only', () => {
    const { outbox, dir } = open();
    const { outbox: other } = open(dir);
    outbox.execute(enqueue('rw:1'), at(1));

    const first = outbox.execute(startBatch, at(2));
    const second = other.execute(startBatch, at(3));

    expect(first.events.map((e) => e.type)).toEqual(['SyncBatchSent']);
    expect(second.events).toEqual([]);
  });

  it('given a write central answered, when its batch is settled, then it leaves the file, credential and body with it, and is counted', () => {
    const { outbox, dir } = open();
    outbox.execute(enqueue('rw:1', 'a body only this write holds'), at(1));
    outbox.execute(startBatch, at(2));

    const { state } = outbox.execute(settle(['rw:1'], ['rw:1']), at(3));
    outbox.close();
    outboxes.pop();

    expect([state.items.size, state.completed]).toEqual([0, 1]);
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(files.some((bytes) => bytes.includes('a body only this write holds') || bytes.includes('secret-token'))).toBe(false);
  });

  it('given a write central never takes, when its 5th batch fails, then it is dead and leaves the outbox', () => {
    const { outbox } = open();
    outbox.execute(enqueue('rw:1'), at(0));
    for (let attempt = 1; attempt <= 4; attempt++) {
      outbox.execute(startBatch, at(attempt * 2));
      outbox.execute(settle(['rw:1'], [], 'HTTP 503'), at(attempt * 2 + 1));
    }
    expect(outbox.state().items.get('rw:1')).toMatchObject({ status: 'failed', retry_count: 4, error_message: 'HTTP 503' });

    outbox.execute(startBatch, at(20));
    const { state } = outbox.execute(settle(['rw:1'], [], 'HTTP 503'), at(21));

    expect([state.items.size, state.dead]).toEqual([0, 1]);
  });
});
