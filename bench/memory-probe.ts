/**
 * Child-process entry of section 8, part 5: the resident memory of an
 * EmbeddedReadStore holding one read-model file, in a process of its own
 * (run with --expose-gc, so both readings follow a full collection).
 *
 * Reads process.memoryUsage() once with the store's code loaded and nothing
 * opened, then opens the file (the constructor loads every document and
 * builds the indexes, as at a restart of the app) and reads it again.
 *
 * Protocol (IPC): child → { type: 'memory', ... } | { type: 'error', message }, then exits.
 */
import { EmbeddedReadStore } from '../src/infrastructure/read-store/embedded/embedded-read-store';

export type MemoryMessage =
  | {
      type: 'memory';
      documents: number;
      loadSeconds: number;
      before: NodeJS.MemoryUsage;
      after: NodeJS.MemoryUsage;
    }
  | { type: 'error'; message: string };

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
}

function send(message: MemoryMessage): Promise<void> {
  return new Promise((resolve) => (process.send ? process.send(message, () => resolve()) : resolve()));
}

async function main(): Promise<void> {
  const [file, collection] = process.argv.slice(2);
  if (!file || !collection) throw new Error('usage: memory-probe <read-models file> <collection>');
  collect();
  const before = process.memoryUsage();
  const start = process.hrtime.bigint();
  const store = new EmbeddedReadStore({ file });
  const loadSeconds = Number(process.hrtime.bigint() - start) / 1e9;
  const documents = await store.collection(collection).countDocuments({});
  collect();
  const after = process.memoryUsage();
  await send({ type: 'memory', documents, loadSeconds, before, after });
  await store.close();
}

main()
  .then(() => process.exit(0))
  .catch(async (error: unknown) => {
    await send({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  });
