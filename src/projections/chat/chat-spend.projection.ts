/**
 * `chatSpend`: what each user's chat responses cost per UTC day, in integer
 * micro-dollars, for the budget gate. One document per (user, day), `_id`
 * `<userId>:<YYYY-MM-DD>`, from `UsageCharged` (free responses record none).
 */
import type { UsageCharged } from '../../aggregates/chat/chat.events';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

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

export const chatSpendProjection: ProjectionDefinition = {
  name: 'chatSpend',
  version: 1,
  eventTypes: ['UsageCharged'],
  collections: [CHAT_SPEND],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = (event as RecordedEvent & UsageCharged).data;
    const day = data.charged_at.slice(0, 10);
    applyOnce(writer, CHAT_SPEND, chatSpendId(data.user_id, day), event, {
      $inc: { cost_micro_usd: data.cost_micro_usd, responses: 1 },
      $set: { user_id: data.user_id, day },
    });
  },
};
