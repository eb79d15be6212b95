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
 */
import { ConfigError } from './config-error';

export interface IntegrityConfig {
  nodePrivateKey: string | null;
  trustedNodeKeys: Record<string, string>;
  signatureMaxSkewMs: number;
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
  return { nodePrivateKey: privateKey ? privateKey.replace(/\\n/g, '\n') : null, trustedNodeKeys: trustedKeys(env.TRUSTED_NODE_KEYS), signatureMaxSkewMs: skewSeconds * 1000 };
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
