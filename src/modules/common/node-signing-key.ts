/**
 * This node's identity key (Ed25519): generated on first start and kept in
 * DATA_DIR (`node-key.pem`, mode 0600). Its public half travels with the
 * peer gossip, so peers pin it as this node's registered key; what this node
 * sends another node (a synced user profile, social-routes §1 sync-user) it
 * signs with the private half, and the receiver verifies against the pinned
 * key (`verifyNodeSignature`).
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign, verify } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';

export const NODE_KEY_FILE = 'node-key.pem';

@Injectable()
export class NodeSigningKey {
  private readonly privateKey: KeyObject;
  /** SPKI DER, base64: what peers pin */
  readonly publicKey: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.privateKey = createPrivateKey(NodeSigningKey.persistedPem(config.dataDir));
    this.publicKey = createPublicKey(this.privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
  }

  /** The base64 Ed25519 signature of `canonicalJson(value)`. */
  sign(value: unknown): string {
    return sign(null, Buffer.from(canonicalJson(value)), this.privateKey).toString('base64');
  }

  private static persistedPem(dataDir: string): string {
    const file = join(dataDir, NODE_KEY_FILE);
    if (existsSync(file)) return readFileSync(file, 'utf8');
    mkdirSync(dataDir, { recursive: true });
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      writeFileSync(file, pem, { mode: 0o600, flag: 'wx' });
      return pem;
    } catch {
      return readFileSync(file, 'utf8'); // another process of this node wrote it first
    }
  }
}

/** JSON with object keys sorted at every level: the bytes a signature covers. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** Whether `signature` (base64) is the Ed25519 signature of `canonicalJson(value)` by the key `publicKey` (SPKI DER, base64). */
export function verifyNodeSignature(publicKey: string, value: unknown, signature: string): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' });
    if (key.asymmetricKeyType !== 'ed25519') return false;
    return verify(null, Buffer.from(canonicalJson(value)), key, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
