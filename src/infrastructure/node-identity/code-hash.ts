/**
 * The code hash of the running build (GET /integrity/code-hash, the
 * `code_hash_check` challenge): SHA-256 over the service's own code as it
 * runs (`dist/src` when built, `src` under ts-node), each file as the line
 * `<relative path> <sha256 of its bytes>` in path order; tests (`*.spec.*`),
 * declaration files and source maps are left out. Two nodes running the same
 * build report the same hash.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

const CODE = /\.(js|ts)$/;
const SKIPPED = /\.spec\.|\.d\.ts$|\.map$/;

export async function codeHash(root: string): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && CODE.test(entry.name) && !SKIPPED.test(entry.name)) files.push(path);
    }
  };
  await walk(root);
  const lines = await Promise.all(
    files.map(async (file) => `${relative(root, file).split(sep).join('/')} ${createHash('sha256').update(await readFile(file)).digest('hex')}`),
  );
  return createHash('sha256')
    .update(lines.sort().join('\n'))
    .digest('hex');
}

/** The directory of the running service's code (src, or dist/src when built). */
export const RUNNING_CODE_ROOT = join(__dirname, '..', '..');
