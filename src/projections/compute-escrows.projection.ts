/**
 * `compute_escrows`: Spark held in escrow while compute is borrowed, for the
 * revenue dashboard's `compute_borrowing` block. Fed by
 * `ComputeEscrowOpened` {escrow_id, spark_amount} and `ComputeEscrowReleased`
 * {escrow_id}. No context records these yet: the read model is empty.
 */
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../infrastructure/projections/projection';
import type { Doc } from '../infrastructure/read-store/read-store.port';
import { applyOnce } from './support/apply-once';

export const COMPUTE_ESCROWS = 'compute_escrows';

export interface ComputeEscrowDoc extends Doc {
  status: 'active' | 'released';
  spark_amount: number;
}

export const computeEscrowsProjection: ProjectionDefinition = {
  name: 'computeEscrows',
  version: 1,
  eventTypes: ['ComputeEscrowOpened', 'ComputeEscrowReleased'],
  collections: [COMPUTE_ESCROWS],
  indexes: [{ collection: COMPUTE_ESCROWS, spec: { keys: { status: 1 }, name: 'status' } }],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = event.data as { escrow_id?: unknown; spark_amount?: unknown };
    if (typeof data.escrow_id !== 'string') return;
    const update =
      event.type === 'ComputeEscrowOpened'
        ? { $set: { status: 'active', spark_amount: typeof data.spark_amount === 'number' ? data.spark_amount : 0 } }
        : { $set: { status: 'released' }, $setOnInsert: { spark_amount: 0 } };
    applyOnce(writer, COMPUTE_ESCROWS, data.escrow_id, event, update);
  },
};
