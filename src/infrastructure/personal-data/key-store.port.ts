/**
 * The key store port (issue 17, item 4: crypto-shredding): the data keys the
 * event store seals personal fields with, one per person and purpose, kept
 * apart from the log. Erasing a person deletes their keys' material: the
 * events that were sealed with them still fold, but read as erased, and no
 * rebuild brings the data back. Every adapter passes
 * test/contract/key-store.contract.ts.
 *
 * Versions: a key is (subject, purpose, version). `current` answers the
 * newest live version, creating version 1 (or the next after an erasure or a
 * rotation) when there is none: an erased person who writes again gets a new
 * key, and the erasure keeps applying to what was written before it.
 */

export interface DataKey {
  subject: string;
  purpose: string;
  version: number;
  /** 32 bytes (AES-256) */
  key: Buffer;
}

export interface KeyStore {
  /** The newest live key of (subject, purpose), created when there is none. Concurrent calls agree. */
  current(subject: string, purpose: string): Promise<DataKey>;
  /** A key by version; null when it was erased or never existed here. */
  get(subject: string, purpose: string, version: number): Promise<Buffer | null>;
  /** A new version for (subject, purpose): later seals use it, earlier ones still open with theirs. */
  rotate(subject: string, purpose: string): Promise<DataKey>;
  /** Deletes the material of every version of (subject, purpose); idempotent. Answers how many versions it erased. */
  erase(subject: string, purpose: string): Promise<number>;
  /** Keys replicated from an upstream node: stored as given unless this store holds that version already (live or erased). */
  import(keys: readonly DataKey[]): Promise<void>;
  close(): Promise<void>;
}

export const KEY_STORE = Symbol('KEY_STORE');

export const DATA_KEY_BYTES = 32;
