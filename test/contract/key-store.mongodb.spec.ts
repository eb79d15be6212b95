import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoKeyStore } from '../../src/infrastructure/personal-data/mongo-key-store';
import type { KeyStore } from '../../src/infrastructure/personal-data/key-store.port';
import { describeWithService, serviceEndpoint } from '../support/services/registry';
import { describeKeyStoreContract } from './key-store.contract';

describeWithService('mongo', 'MongoDB key store', () => {
  const database = `key_store_contract_${randomBytes(4).toString('hex')}`;
  const url = (): string => serviceEndpoint('mongo')!;

  afterAll(async () => {
    const client = new MongoClient(url());
    try {
      await client.db(database).dropDatabase();
    } finally {
      await client.close();
    }
  });

  describeKeyStoreContract('mongodb', async () => {
    let store: KeyStore = await MongoKeyStore.connect({ url: url(), database });
    return {
      store,
      reopen: async () => {
        await store.close();
        store = await MongoKeyStore.connect({ url: url(), database });
        return store;
      },
      cleanup: () => store.close(),
    };
  });
});
