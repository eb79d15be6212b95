/**
 * `chatSpend`: what each user's chat responses cost per UTC day, in integer
 * micro-dollars, for the budget gate. One document per (user, day), `_id`
 * `<userId>:<YYYY-MM-DD>`, from `UsageCharged` (free responses record none).
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const CHAT_SPEND = 'chat_spend';

export interface ChatSpendDoc extends Doc {
  user_id: string;
  day: string;
  cost_micro_usd: number;
  responses: number;
}

export function chatSpendId(userId: string, day: string): string {
  return `${userId}:${day}`;
}

export const chatSpendProjection = defineProjection({
  name: 'chatSpend',
  version: 1,
  collections: [CHAT_SPEND],
  on: {
    UsageCharged: (event, writer) => {
      const data = event.data;
      const day = data.charged_at.slice(0, 10);
      applyOnce(writer, CHAT_SPEND, chatSpendId(data.user_id, day), event, {
        $inc: { cost_micro_usd: data.cost_micro_usd, responses: 1 },
        $set: { user_id: data.user_id, day },
      });
    },
  },
});
