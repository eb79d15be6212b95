import { MongoKeyStore } from '../../src/infrastructure/personal-data/mongo-key-store';
import { mongoDatabaseFixture } from '../support/mongo-database';
import { describeWithService } from '../support/services/registry';
import { describeKeyStoreContract } from './key-store.contract';

describeWithService('mongo', 'MongoDB key store', () => {
  const mongo = mongoDatabaseFixture('key_store_contract');

  describeKeyStoreContract('mongodb', () => mongo.openStore((connection) => MongoKeyStore.connect(connection)));
});
