/**
 * The node's identity: stable across restarts. SVC_NODE_ID wins, then
 * NODE_ID; otherwise the id kept in `<dataDir>/node-id`, generated and
 * written there at the first start.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from './config-error';

const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
export const NODE_ID_FILE = 'node-id';

export function resolveNodeId(env: Record<string, string | undefined>, dataDir: string): string {
  for (const name of ['SVC_NODE_ID', 'NODE_ID']) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (!NODE_ID.test(value)) throw new ConfigError(name, `expected 1..128 of letters, digits, _ . : -, got '${value}'`);
    return value;
  }
  const file = join(dataDir, NODE_ID_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (!NODE_ID.test(stored)) throw new ConfigError('SVC_NODE_ID', `unset, and ${file} holds no valid node id ('${stored}')`);
    return stored;
  }
  const generated = `node-${randomUUID()}`;
  mkdirSync(dataDir, { recursive: true });
  // write then rename: a crash never leaves a half-written id behind
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${generated}\n`, { flag: 'w' });
  renameSync(temporary, file);
  return generated;
}
