/**
 * The node's identity and the trust between nodes (issue 17; docs/architecture.md,
 * "Audit and node identity"):
 *
 * - NODE_PRIVATE_KEY: the node's Ed25519 private key (PKCS#8 PEM, or the
 *   32-byte seed as 64 hex characters); unset: `DATA_DIR/node-key.pem`,
 *   created at the first start.
 * - TRUSTED_NODE_KEYS: `<node id>=<public key hex>` pairs, comma-separated:
 *   the nodes whose signed requests this node accepts (besides itself) until
 *   federation registers keys.
 * - NODE_SIGNATURE_MAX_SKEW_SECONDS (default 60): how far a signed request's
 *   timestamp may be from this node's clock; its nonce is remembered as long.
 * - INTEGRITY_REGISTRY (default off): this node is an integrity registry
 *   (GET /integrity/expected-hash, POST /integrity/register-node, GET
 *   /integrity/trusted-keys answer; otherwise 403 `Not a registry node`).
 * - INTEGRITY_ENFORCEMENT (`off` default, `soft`, `hard`): whether a
 *   registering node whose code hash is not the expected one is refused.
 * - INTEGRITY_EXPECTED_HASHES: `<version>=<sha256 hex>` pairs,
 *   comma-separated: the code hash a registry expects for each version (its
 *   own version always expects its own running hash).
 * - HIERARCHY_MASTER_PUBLIC_KEY: the Ed25519 public key (64 hex) whose
 *   signature over an upgrade challenge moves this node to the central tier
 *   (POST /hierarchy/verify-upgrade); unset, no upgrade is accepted.
 */
import { ConfigError } from './config-error';

export interface IntegrityConfig {
  nodePrivateKey: string | null;
  trustedNodeKeys: Record<string, string>;
  signatureMaxSkewMs: number;
  registryMode: boolean;
  enforcement: 'off' | 'soft' | 'hard';
  expectedHashes: Record<string, string>;
  masterPublicKey: string | null;
}

type Env = Record<string, string | undefined>;

const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const PUBLIC_KEY = /^[0-9a-f]{64}$/i;

export function loadIntegrityConfig(env: Env): IntegrityConfig {
  const privateKey = env.NODE_PRIVATE_KEY?.trim();
  const skew = env.NODE_SIGNATURE_MAX_SKEW_SECONDS?.trim();
  const skewSeconds = skew ? Number(skew) : 60;
  if (!Number.isInteger(skewSeconds) || skewSeconds < 1 || skewSeconds > 3600) {
    throw new ConfigError('NODE_SIGNATURE_MAX_SKEW_SECONDS', `expected a whole number of seconds from 1 to 3600, got '${skew}'`);
  }
  return {
    nodePrivateKey: privateKey ? privateKey.replace(/\\n/g, '\n') : null,
    trustedNodeKeys: trustedKeys(env.TRUSTED_NODE_KEYS),
    signatureMaxSkewMs: skewSeconds * 1000,
    registryMode: registryFlag(env.INTEGRITY_REGISTRY),
    enforcement: enforcement(env.INTEGRITY_ENFORCEMENT),
    expectedHashes: expectedHashes(env.INTEGRITY_EXPECTED_HASHES),
    masterPublicKey: masterKey(env.HIERARCHY_MASTER_PUBLIC_KEY),
  };
}

function registryFlag(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  if (!v) return false;
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  throw new ConfigError('INTEGRITY_REGISTRY', `expected true or false, got '${value}'`);
}

function enforcement(value: string | undefined): IntegrityConfig['enforcement'] {
  const v = value?.trim().toLowerCase();
  if (!v) return 'off';
  if (v === 'off' || v === 'soft' || v === 'hard') return v;
  throw new ConfigError('INTEGRITY_ENFORCEMENT', `expected one of off, soft, hard, got '${value}'`);
}

const VERSION = /^[A-Za-z0-9_.+-]{1,64}$/;
const SHA256 = /^[0-9a-f]{64}$/i;

function expectedHashes(value: string | undefined): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const pair of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [version, hash, ...rest] = pair.split('=').map((p) => p.trim());
    if (rest.length > 0 || !version || !VERSION.test(version) || !hash || !SHA256.test(hash)) {
      throw new ConfigError('INTEGRITY_EXPECTED_HASHES', `expected <version>=<64 hex characters>, comma-separated; got '${pair}'`);
    }
    hashes[version] = hash.toLowerCase();
  }
  return hashes;
}

function masterKey(value: string | undefined): string | null {
  const v = value?.trim();
  if (!v) return null;
  if (!PUBLIC_KEY.test(v)) throw new ConfigError('HIERARCHY_MASTER_PUBLIC_KEY', 'expected 64 hex characters (a raw Ed25519 public key)');
  return v.toLowerCase();
}

function trustedKeys(value: string | undefined): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const pair of (value ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [nodeId, key, ...rest] = pair.split('=').map((p) => p.trim());
    if (rest.length > 0 || !nodeId || !NODE_ID.test(nodeId) || !key || !PUBLIC_KEY.test(key)) {
      throw new ConfigError('TRUSTED_NODE_KEYS', `expected <node id>=<64 hex characters>, comma-separated; got '${pair}'`);
    }
    keys[nodeId] = key.toLowerCase();
  }
  return keys;
}
