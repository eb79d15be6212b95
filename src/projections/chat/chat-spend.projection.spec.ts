import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { CHAT_SPEND, type ChatSpendDoc, chatSpendId, chatSpendProjection as projection } from './chat-spend.projection';

const charged = (user: string, cost: number, at: string) =>
  recorded('UsageCharged', { message_id: `m-${cost}`, user_id: user, prompt_id: 'p', model: 'm', cost_micro_usd: cost, charged_at: at }, { at });

describe('chatSpend projection', () => {
  it('given charges on two days, then each UTC day sums its own', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, charged('u1', 1500, '2026-11-22T10:00:00.000Z'), charged('u1', 500, '2026-11-22T23:59:59.000Z'), charged('u1', 7, '2026-11-23T00:00:00.000Z'));
    const spend = store.collection<ChatSpendDoc>(CHAT_SPEND);
    expect(await spend.findOne({ _id: chatSpendId('u1', '2026-11-22') })).toMatchObject({ cost_micro_usd: 2000, responses: 2 });
    expect(await spend.findOne({ _id: chatSpendId('u1', '2026-11-23') })).toMatchObject({ cost_micro_usd: 7, responses: 1 });
  });

  it('given charges, when they are replayed, then nothing is counted twice', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [charged('u2', 100, '2026-11-22T10:00:00.000Z'), charged('u2', 200, '2026-11-22T11:00:00.000Z')];
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, ...events);
    expect(await store.collection<ChatSpendDoc>(CHAT_SPEND).findOne({ _id: chatSpendId('u2', '2026-11-22') })).toMatchObject({ cost_micro_usd: 300, responses: 2 });
  });
});
