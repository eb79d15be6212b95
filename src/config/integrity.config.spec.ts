import { ConfigError } from './config-error';
import { loadIntegrityConfig } from './integrity.config';

describe('integrity config', () => {
  it('given nothing, then the key comes from DATA_DIR, no other node is trusted and the window is 60 s', () => {
    expect(loadIntegrityConfig({})).toEqual({
      nodePrivateKey: null,
      trustedNodeKeys: {},
      signatureMaxSkewMs: 60_000,
      registryMode: false,
      enforcement: 'off',
      expectedHashes: {},
      masterPublicKey: null,
    });
  });

  it('given trusted keys, a PEM with escaped newlines and a window, then they are read', () => {
    const config = loadIntegrityConfig({
      TRUSTED_NODE_KEYS: ` a=${'AB'.repeat(32)} , node-b=${'01'.repeat(32)}`,
      NODE_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----',
      NODE_SIGNATURE_MAX_SKEW_SECONDS: '30',
    });

    expect(config).toMatchObject({
      nodePrivateKey: '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----',
      trustedNodeKeys: { a: 'ab'.repeat(32), 'node-b': '01'.repeat(32) },
      signatureMaxSkewMs: 30_000,
    });
  });

  it('given registry mode, hard enforcement, expected hashes and a master key, then they are read', () => {
    const config = loadIntegrityConfig({
      INTEGRITY_REGISTRY: 'true',
      INTEGRITY_ENFORCEMENT: 'hard',
      INTEGRITY_EXPECTED_HASHES: `1.0.0=${'AA'.repeat(32)}, 1.1.0=${'0b'.repeat(32)}`,
      HIERARCHY_MASTER_PUBLIC_KEY: 'CD'.repeat(32),
    });

    expect(config).toMatchObject({ registryMode: true, enforcement: 'hard', expectedHashes: { '1.0.0': 'aa'.repeat(32), '1.1.0': '0b'.repeat(32) }, masterPublicKey: 'cd'.repeat(32) });
  });

  it.each([
    ['a key that is not 32 bytes of hex', { TRUSTED_NODE_KEYS: 'a=abc' }],
    ['a pair without a key', { TRUSTED_NODE_KEYS: 'a' }],
    ['a window of 0', { NODE_SIGNATURE_MAX_SKEW_SECONDS: '0' }],
    ['an unknown enforcement mode', { INTEGRITY_ENFORCEMENT: 'strict' }],
    ['an expected hash that is not 32 bytes of hex', { INTEGRITY_EXPECTED_HASHES: '1.0.0=abc' }],
    ['a master key that is not 32 bytes of hex', { HIERARCHY_MASTER_PUBLIC_KEY: 'xyz' }],
  ])('given %s, then the setting is named', (_, env) => {
    expect(() => loadIntegrityConfig(env)).toThrow(ConfigError);
  });
});
