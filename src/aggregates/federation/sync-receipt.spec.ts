import { deciderKit } from '../../../test/support/decider-kit';
import { type SyncReceiptCommand, syncReceiptDecider } from './sync-receipt';

const now = new Date('2026-12-07T12:00:00.000Z');
const { given, history } = deciderKit(syncReceiptDecider, now);
const applied: SyncReceiptCommand = { kind: 'receive', senderNodeId: 'child', itemId: 'i1', operationType: 'sync_post', outcome: { ok: true, outcome: 'applied' } };
const refused: SyncReceiptCommand = { ...applied, outcome: { ok: false, error: 'title or content is required' } };

describe('sync receipt', () => {
  it('given a new item, when applied, then it is received', () =>
    given()
      .when(applied)
      .then({ type: 'SyncItemReceived', data: { sender_node_id: 'child', item_id: 'i1', operation_type: 'sync_post', outcome: 'applied', received_at: now.toISOString() } }));

  it('given a received item, when it arrives again, then nothing is recorded', () => given(...history(applied)).when(applied).thenNothing());

  it('given a refused item, when refused again, then the attempts count up', () =>
    given(...history(refused))
      .when(refused)
      .then({ type: 'SyncItemRejected', data: { sender_node_id: 'child', item_id: 'i1', operation_type: 'sync_post', error: 'title or content is required', attempts: 2, dead: false, rejected_at: now.toISOString() } }));

  it('given an item refused 4 times, when refused a 5th time, then it is dead', () => {
    const result = given(...history(refused, refused, refused, refused)).when(refused);
    expect(result.events()[0]).toMatchObject({ type: 'SyncItemRejected', data: { attempts: 5, dead: true } });
    expect(result.state().status).toBe('dead');
  });

  it('given a dead item, when it arrives again (even valid), then nothing is recorded', () => given(...history(refused, refused, refused, refused, refused)).when(applied).thenNothing());

  it('given a refused item, when it arrives valid, then it is received', () => {
    expect(given(...history(refused)).when(applied).state().status).toBe('completed');
  });
});
