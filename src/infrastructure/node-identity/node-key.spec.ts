import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_KEY_FILE, NodeKey, verifySignature } from './node-key';

describe('NodeKey', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'node-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given no configured key, when loaded twice from DATA_DIR, then the first load creates a private file and the second reads the same key', () => {
    const first = NodeKey.load({ dataDir: dir, privateKey: null });
    const second = NodeKey.load({ dataDir: dir, privateKey: null });

    expect(second.publicKeyHex).toBe(first.publicKeyHex);
    expect(first.publicKeyHex).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, NODE_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('given a configured key as PEM or as a hex seed, when loaded, then it is used and DATA_DIR is left alone', () => {
    const key = NodeKey.generate();
    const seed = '11'.repeat(32);

    expect(NodeKey.load({ dataDir: dir, privateKey: key.toPem() }).publicKeyHex).toBe(key.publicKeyHex);
    expect(NodeKey.load({ dataDir: dir, privateKey: seed }).publicKeyHex).toBe(NodeKey.parse(seed).publicKeyHex);
    expect(() => readFileSync(join(dir, NODE_KEY_FILE))).toThrow();
  });

  it('given a key file that holds no key, when loaded, then the error names the file', () => {
    writeFileSync(join(dir, NODE_KEY_FILE), 'not a key');

    expect(() => NodeKey.load({ dataDir: dir, privateKey: null })).toThrow(/node-key\.pem holds no Ed25519 private key/);
  });

  it('given a signature, when verified with the right key, a wrong key, another message or garbage, then only the first holds', () => {
    const key = NodeKey.generate();
    const other = NodeKey.generate();
    const signature = key.sign('hello');

    expect(verifySignature(key.publicKeyHex, 'hello', signature)).toBe(true);
    expect(verifySignature(other.publicKeyHex, 'hello', signature)).toBe(false);
    expect(verifySignature(key.publicKeyHex, 'hellO', signature)).toBe(false);
    expect(verifySignature(key.publicKeyHex, 'hello', 'zz')).toBe(false);
    expect(verifySignature('00'.repeat(32), 'hello', signature)).toBe(false);
  });
});
