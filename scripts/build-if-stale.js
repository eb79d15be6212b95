#!/usr/bin/env node
/**
 * `npm start`'s prestart: compiles with `tsc -p tsconfig.build.json` only
 * when a source is newer than the last build (or there is none), so a start
 * after a build starts at once. The stamp `dist/.build-stamp` is written
 * after a successful compile; any file under src/, bench/ or
 * test/support/services/ (what tsconfig.build.json compiles), a tsconfig or
 * package.json newer than it means the build is stale.
 */
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'bench', 'test/support/services', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtime(join(path, name))), stat.mtimeMs);
}

const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const changed = Math.max(...inputs.map((input) => newestMtime(join(root, input))));
if (built > 0 && changed <= built) {
  process.stdout.write('build is current: starting without compiling\n');
} else {
  process.stdout.write('compiling (tsc -p tsconfig.build.json)\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
