/**
 * The worker thread of a file-backed SqliteEventStore: it owns the write
 * connection and runs each group commit there, so the COMMIT's fsync blocks
 * this thread, not the event loop serving requests. One batch at a time;
 * the store sends the next once this one answered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BatchWriter, openEventDatabase, type WriteOutcome, type WriteRequest } from './sqlite-batch-writer';

export type WriterRequest = { type: 'write'; id: number; batch: WriteRequest[]; recordedAt: string } | { type: 'close' };
export type WriterReply =
  | { type: 'written'; id: number; outcomes: WriteOutcome[] }
  | { type: 'failed'; id: number; message: string; code?: string }
  | { type: 'closed' };

export interface WriterData {
  file: string;
  busyTimeoutMs: number;
}

if (parentPort) {
  const port = parentPort;
  const { file, busyTimeoutMs } = workerData as WriterData;
  const db = openEventDatabase(file, busyTimeoutMs);
  const writer = new BatchWriter(db);
  port.on('message', (request: WriterRequest) => {
    if (request.type === 'close') {
      db.close();
      port.postMessage({ type: 'closed' } satisfies WriterReply);
      port.close();
      return;
    }
    try {
      port.postMessage({ type: 'written', id: request.id, outcomes: writer.write(request.batch, request.recordedAt) } satisfies WriterReply);
    } catch (error) {
      const e = error as { message?: string; code?: string };
      port.postMessage({ type: 'failed', id: request.id, message: e.message ?? String(error), code: e.code } satisfies WriterReply);
    }
  });
}
