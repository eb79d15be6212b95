import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config';
import { NODE_ID_FILE, resolveNodeId } from './node-identity';

describe('node identity', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'node-id-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given nothing, then an id is generated, written to DATA_DIR and the same id comes back on the next start', () => {
    const first = resolveNodeId({}, dir);
    expect(first).toMatch(/^node-[0-9a-f-]{36}$/);
    expect(readFileSync(join(dir, NODE_ID_FILE), 'utf8').trim()).toBe(first);
    expect(resolveNodeId({}, dir)).toBe(first);
  });

  it('given a data dir that does not exist yet, then it is created', () => {
    const nested = join(dir, 'a', 'b');
    expect(resolveNodeId({}, nested)).toBe(readFileSync(join(nested, NODE_ID_FILE), 'utf8').trim());
  });

  it('given SVC_NODE_ID, then it wins over NODE_ID and the file, and nothing is written', () => {
    writeFileSync(join(dir, NODE_ID_FILE), 'from-file\n');
    expect(resolveNodeId({ SVC_NODE_ID: 'svc-node', NODE_ID: 'legacy' }, dir)).toBe('svc-node');
    expect(resolveNodeId({ NODE_ID: 'legacy' }, dir)).toBe('legacy');
    expect(resolveNodeId({ SVC_NODE_ID: '  ' }, dir)).toBe('from-file');
  });

  it('given a bad id, then start fails naming the variable', () => {
    expect(() => resolveNodeId({ SVC_NODE_ID: 'has spaces' }, dir)).toThrow(ConfigError);
    expect(() => resolveNodeId({ SVC_NODE_ID: 'has spaces' }, dir)).toThrow(/SVC_NODE_ID/);
    writeFileSync(join(dir, NODE_ID_FILE), 'bad id\n');
    expect(() => resolveNodeId({}, dir)).toThrow(ConfigError);
  });
});
