/**
 * Marks a data folder as in use by a running service process, so that tools
 * that must not run beside it (`npm run projections:rebuild`) can refuse.
 * Each process writes `DATA_DIR/.running-<pid>.json` ({pid, host, role,
 * started_at}) once it serves and removes it when it exits. A marker whose
 * process is gone (after kill -9) is stale: it is ignored and swept.
 */
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface RunningService {
  pid: number;
  host: string;
  role: string;
  started_at: string;
}

const PREFIX = '.running-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes this process's marker; removed on exit. */
export function markRunning(dataDir: string, role: string): void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, `${PREFIX}${process.pid}.json`);
  const marker: RunningService = { pid: process.pid, host: hostname(), role, started_at: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(marker)}\n`);
  process.once('exit', () => {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  });
}

/** The live service processes of this host that use `dataDir`; stale markers are deleted. */
export function runningServices(dataDir: string): RunningService[] {
  let names: string[];
  try {
    names = readdirSync(dataDir).filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'));
  } catch {
    return [];
  }
  const live: RunningService[] = [];
  for (const name of names) {
    const file = join(dataDir, name);
    try {
      const marker = JSON.parse(readFileSync(file, 'utf8')) as RunningService;
      if (marker.host !== hostname()) continue; // another machine's process cannot be checked from here
      if (marker.pid !== process.pid && alive(marker.pid)) live.push(marker);
      else if (marker.pid !== process.pid) unlinkSync(file);
    } catch {
      // half-written or removed meanwhile: not a live marker
    }
  }
  return live;
}
