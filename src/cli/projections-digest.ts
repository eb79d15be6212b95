/**
 * `npm run projections:digest`: prints `{digests: {<read model>: <sha256
 * hex>}, position}` for the read models in the read store
 * (src/infrastructure/projections/read-model-digest.ts), the same as GET
 * /audit/digest. With the embedded read store, stop the service first (or
 * accept the state it last wrote behind): a running service holds the
 * newest documents in its memory.
 */
import 'reflect-metadata';
import { type AppConfig, loadConfigOrExit } from '../config/config';
import { createReadStore } from '../infrastructure/ports.factory';
import { ProjectionRegistry } from '../infrastructure/projections/projection-registry';
import { type ReadModelDigest, digestReadModels } from '../infrastructure/projections/read-model-digest';
import { ALL_PROJECTIONS } from '../projections';

export async function projectionsDigest(config: AppConfig): Promise<ReadModelDigest> {
  const readStore = await createReadStore(config);
  try {
    return await digestReadModels(readStore, new ProjectionRegistry(ALL_PROJECTIONS).all());
  } finally {
    await readStore.close();
  }
}

if (require.main === module) {
  projectionsDigest(loadConfigOrExit())
    .then((digest) => process.stdout.write(`${JSON.stringify(digest, null, 2)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    });
}
