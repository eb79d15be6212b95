/**
 * For the rebuild suites: the documents of some read models of a closed
 * app's DATA_DIR, and `npm run projections:rebuild` (the CLI, in a child
 * process) over that directory.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/config';
import { createReadStore } from '../../src/infrastructure/ports.factory';
import { adapterEnv } from './adapters';

/** Every document of each collection, sorted by `_id`. */
export async function readModelSnapshot(dataDir: string, collections: readonly string[]): Promise<Record<string, unknown[]>> {
  const store = await createReadStore(loadConfig({ DATA_DIR: dataDir, ...adapterEnv(dataDir) }));
  const result: Record<string, unknown[]> = {};
  for (const name of collections) result[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
  await store.close();
  return result;
}

/** Runs the rebuild CLI over the data directory of a closed app. */
export async function rebuildProjections(dataDir: string): Promise<void> {
  const root = join(__dirname, '..', '..');
  await promisify(execFile)(process.execPath, ['-r', 'ts-node/register', join(root, 'src', 'cli', 'rebuild-projections.ts')], {
    cwd: root,
    env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', DATA_DIR: dataDir, ...adapterEnv(dataDir) },
  });
}
