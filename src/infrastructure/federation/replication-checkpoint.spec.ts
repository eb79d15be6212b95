import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKPOINT_FILE, ReplicationCheckpoint } from './replication-checkpoint';

describe('the replication checkpoint', () => {
  const dir = () => mkdtempSync(join(tmpdir(), 'svc-checkpoint-'));

  it('given no checkpoint yet, then replication starts at position 0', async () => {
    expect(await new ReplicationCheckpoint(dir(), 'http://central').read()).toBe(0);
  });

  it('given a written position, when the node restarts, then it resumes there', async () => {
    const dataDir = dir();
    await new ReplicationCheckpoint(dataDir, 'http://central').write(42);
    expect(await new ReplicationCheckpoint(dataDir, 'http://central').read()).toBe(42);
  });

  it('given a checkpoint of another upstream, then it is refused (positions belong to the log that gave them)', async () => {
    const dataDir = dir();
    await new ReplicationCheckpoint(dataDir, 'http://central-a').write(7);
    await expect(new ReplicationCheckpoint(dataDir, 'http://central-b').read()).rejects.toThrow(/fresh DATA_DIR/);
  });

  it('given a damaged position, then it is refused rather than restarting from 0', async () => {
    const dataDir = dir();
    writeFileSync(join(dataDir, CHECKPOINT_FILE), JSON.stringify({ upstream: 'http://central', position: -3 }));
    await expect(new ReplicationCheckpoint(dataDir, 'http://central').read()).rejects.toThrow(/bad position/);
  });
});
