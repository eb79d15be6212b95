/** Reads of the chat context: today's spend of a user (budget gate). */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CHAT_SPEND, type ChatSpendDoc, chatSpendId } from '../../projections/chat/chat-spend.projection';

@Injectable()
export class ChatQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** What the user's responses cost today (UTC), in micro-dollars. */
  async spentTodayMicroUsd(userId: string, now: Date): Promise<number> {
    const doc = await this.store.collection<ChatSpendDoc>(CHAT_SPEND).findOne({ _id: chatSpendId(userId, now.toISOString().slice(0, 10)) });
    return doc?.cost_micro_usd ?? 0;
  }
}
