/**
 * Where a regional node is in its upstream's log: `DATA_DIR/federation-checkpoint.json`,
 * `{upstream, position}`, replaced atomically (a finished temporary file,
 * fsynced, renamed into place, the directory fsynced) after each page was
 * committed. A crash between the commit and the checkpoint replays that page,
 * which appends nothing twice (append-replicated.ts). A checkpoint of another
 * upstream is refused (replication stops): positions mean something only in
 * the log that gave them.
 */
import { open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { ReplicationDivergenceError } from './append-replicated';

export const CHECKPOINT_FILE = 'federation-checkpoint.json';

export class ReplicationCheckpoint {
  private readonly file: string;

  constructor(
    private readonly dataDir: string,
    private readonly upstream: string,
  ) {
    this.file = join(dataDir, CHECKPOINT_FILE);
  }

  async read(): Promise<number> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    const saved = JSON.parse(text) as { upstream?: unknown; position?: unknown };
    if (saved.upstream !== this.upstream) {
      throw new ReplicationDivergenceError(`${this.file} holds a position in the log of ${String(saved.upstream)}, not of ${this.upstream}: replicating another upstream needs a fresh DATA_DIR`);
    }
    if (typeof saved.position !== 'number' || !Number.isSafeInteger(saved.position) || saved.position < 0) throw new Error(`${this.file}: bad position`);
    return saved.position;
  }

  async write(position: number): Promise<void> {
    const temporary = `${this.file}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify({ upstream: this.upstream, position }));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.file);
    const dir = await open(this.dataDir, 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
