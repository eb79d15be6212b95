import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { RegionalReplicator } from './regional-replicator';
import { ReplicationCheckpoint } from './replication-checkpoint';

const UPSTREAM = 'http://central.example:3000';

/** A replicator of a process that does not replicate itself (an API process beside the worker that does): only its config is used. */
function apiProcessReplicator(dataDir: string): RegionalReplicator {
  const config = { dataDir, federation: { upstreamUrl: UPSTREAM } } as AppConfig;
  const unused = {} as never;
  return new RegionalReplicator(config, unused, unused, unused, unused);
}

describe('RegionalReplicator.waitForPosition in a process that does not replicate', () => {
  it('given the replicating process checkpoints past the position, then the wait resolves true', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-replicator-'));
    const waiting = apiProcessReplicator(dir).waitForPosition(7, 10_000);

    await new ReplicationCheckpoint(dir, UPSTREAM).write(9);

    await expect(waiting).resolves.toBe(true);
  });

  it('given the checkpoint stays behind the position, then the wait resolves false at its bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-replicator-'));
    await new ReplicationCheckpoint(dir, UPSTREAM).write(3);

    await expect(apiProcessReplicator(dir).waitForPosition(7, 100)).resolves.toBe(false);
  });
});
