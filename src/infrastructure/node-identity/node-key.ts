/**
 * The node's Ed25519 key pair (issue 17, node identity): the private key
 * given by configuration (`NODE_PRIVATE_KEY`: a PKCS#8 PEM, or the 32-byte
 * seed as 64 hex characters) or kept in `DATA_DIR/node-key.pem` (PKCS#8 PEM,
 * mode 0600, created at the first start). The public key travels as the 32
 * raw bytes in hex (`GET /integrity/public-key`); signatures as the 64 raw
 * bytes in hex. Node's own crypto, no dependency.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const NODE_KEY_FILE = 'node-key.pem';

/** DER prefixes of an Ed25519 key whose raw bytes follow (RFC 8410). */
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const HEX = /^[0-9a-f]+$/i;

export class NodeKey {
  /** the 32-byte public key, hex */
  readonly publicKeyHex: string;
  private readonly publicKey: KeyObject;

  constructor(private readonly privateKey: KeyObject) {
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`the node key must be Ed25519, not ${privateKey.asymmetricKeyType ?? 'unknown'}`);
    this.publicKey = createPublicKey(privateKey);
    this.publicKeyHex = rawPublicKey(this.publicKey).toString('hex');
  }

  static generate(): NodeKey {
    return new NodeKey(generateKeyPairSync('ed25519').privateKey);
  }

  /** A PKCS#8 PEM, or a 32-byte seed as 64 hex characters. */
  static parse(text: string): NodeKey {
    const trimmed = text.trim();
    if (trimmed.length === 64 && HEX.test(trimmed)) {
      return new NodeKey(createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(trimmed, 'hex')]), format: 'der', type: 'pkcs8' }));
    }
    return new NodeKey(createPrivateKey({ key: trimmed, format: 'pem' }));
  }

  /** The configured key, else the one in DATA_DIR (created, 0600, at the first start). */
  static load(options: { dataDir: string; privateKey: string | null }): NodeKey {
    if (options.privateKey) return NodeKey.parse(options.privateKey);
    const file = join(options.dataDir, NODE_KEY_FILE);
    if (!existsSync(file)) createKeyFile(file, options.dataDir);
    try {
      return NodeKey.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(`${file} holds no Ed25519 private key (${(error as Error).message}): restore it from a backup, or remove it to give this node a new identity`, { cause: error });
    }
  }

  /** The private key as PKCS#8 PEM (to store it). */
  toPem(): string {
    return this.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }

  /** Ed25519 signature of `message`, hex. */
  sign(message: string | Buffer): string {
    return sign(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, this.privateKey).toString('hex');
  }
}

/** Whether `signatureHex` is `publicKeyHex`'s Ed25519 signature of `message`; false for malformed keys or signatures. */
export function verifySignature(publicKeyHex: string, message: string | Buffer, signatureHex: string): boolean {
  if (publicKeyHex.length !== 64 || !HEX.test(publicKeyHex) || signatureHex.length !== 128 || !HEX.test(signatureHex)) return false;
  try {
    const key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
    return verify(null, typeof message === 'string' ? Buffer.from(message, 'utf8') : message, key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

function rawPublicKey(key: KeyObject): Buffer {
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 32);
}

/**
 * Writes a new key without ever exposing a half-written file, and without
 * two processes of one DATA_DIR (API and worker) ending with different keys:
 * the file is linked into place only if absent, and the loser reads the winner's.
 */
function createKeyFile(file: string, dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, NodeKey.generate().toPem(), { mode: 0o600 });
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temporary);
  }
}
