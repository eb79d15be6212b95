import { randomBytes } from 'node:crypto';
import { Collection, Doc, ReadStore } from '../../../src/infrastructure/read-store/read-store.port';

/** What an adapter's spec hands to the contract for every test. */
export interface ReadStoreUnderTest {
  store: ReadStore;
  /**
   * Closes `store` and opens a new one over the same backing storage;
   * omit it for adapters without durable storage.
   */
  reopen?: () => Promise<ReadStore>;
  /** Closes whichever store is open now and removes the test's data. */
  cleanup: () => Promise<void>;
}

export type CreateReadStore = () => Promise<ReadStoreUnderTest>;

/** The per-test view the contract parts work with. */
export interface ReadStoreFixture {
  /** the store open right now (changes after reopen) */
  readonly store: ReadStore;
  readonly canReopen: boolean;
  reopen(): Promise<ReadStore>;
  /** a collection with a name no other test (or earlier run) uses */
  freshCollection<T extends Doc = Doc>(label: string): Collection<T>;
  /** a fresh collection holding `docs` */
  givenCollection<T extends Doc = Doc>(label: string, docs: T[]): Promise<Collection<T>>;
}

let counter = 0;
const runId = randomBytes(3).toString('hex');

/** Short and unique, so it fits MongoDB's namespace limit and never meets a leftover. */
export function uniqueName(label: string): string {
  counter += 1;
  return `${label}_${runId}_${counter}`;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the operation to be rejected, but it succeeded');
}

export function ids(docs: Doc[]): string[] {
  return docs.map((doc) => doc._id).sort();
}
