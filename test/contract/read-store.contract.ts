/**
 * The read store contract: written against the port only, so every adapter
 * (embedded/mingo, MongoDB) runs it unchanged. A difference in behaviour
 * between adapters is a bug in the port or in an adapter.
 *
 * Every test uses its own collection and checkpoint names, so a shared
 * database (MongoDB) needs no cleanup between tests.
 */
import { Collection, Doc, ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { CreateReadStore, ReadStoreFixture, ReadStoreUnderTest, uniqueName } from './read-store/fixture';
import { describeIndexedReadContract, describeQueryContract } from './read-store/queries.contract';
import { describeUpdateContract } from './read-store/updates.contract';
import { describeWriteContract } from './read-store/writes.contract';
import { describeLifecycleContract } from './read-store/lifecycle.contract';
import { describeCommitContract } from './read-store/commit.contract';

export type { CreateReadStore, ReadStoreUnderTest } from './read-store/fixture';

export function describeReadStoreContract(adapterName: string, createStore: CreateReadStore): void {
  describe(`ReadStore contract (${adapterName})`, () => {
    let current: ReadStoreUnderTest | null = null;

    beforeEach(async () => {
      current = await createStore();
    });

    afterEach(async () => {
      await current?.cleanup();
      current = null;
    });

    const fixture: ReadStoreFixture = {
      get store(): ReadStore {
        if (!current) throw new Error('no store: used outside a test');
        return current.store;
      },
      get canReopen(): boolean {
        return current?.reopen !== undefined;
      },
      async reopen(): Promise<ReadStore> {
        if (!current?.reopen) throw new Error(`${adapterName} cannot reopen`);
        current.store = await current.reopen();
        return current.store;
      },
      freshCollection<T extends Doc = Doc>(label: string): Collection<T> {
        return fixture.store.collection<T>(uniqueName(label));
      },
      async givenCollection<T extends Doc = Doc>(label: string, docs: T[]): Promise<Collection<T>> {
        const collection = fixture.freshCollection<T>(label);
        for (const doc of docs) await collection.insertOne(doc);
        return collection;
      },
    };

    describeQueryContract(fixture);
    describeIndexedReadContract(fixture);
    describeUpdateContract(fixture);
    describeWriteContract(fixture);
    describeLifecycleContract(fixture);
    describeCommitContract(fixture);
  });
}
