/**
 * One webhook message of a bot (stream `botMessage-<userId>:<message_id>`):
 * the first delivery claims it and then records the post it published; a
 * repeat (a retry, a concurrent duplicate) finds it claimed and is answered
 * `duplicate`, so a message publishes at most once.
 */
import { assertNever, DomainError } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export type BotMessageEvent =
  | { type: 'BotMessageClaimed'; data: { user_id: string; message_id: string; at: string } }
  | { type: 'BotMessagePublished'; data: { user_id: string; message_id: string; post_id: string; at: string } };

export type BotMessageState = { status: 'none' } | { status: 'claimed'; postId: string | null };

export type BotMessageCommand = { kind: 'claim'; userId: string; messageId: string } | { kind: 'published'; userId: string; messageId: string; postId: string };

export const botMessageStreamId = (userId: string, messageId: string): string => `botMessage-${userId}:${messageId}`;

function decide(command: BotMessageCommand, state: BotMessageState, now: Date): BotMessageEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'claim':
      if (state.status === 'claimed') throw new DomainError('conflict', 'duplicate');
      return [{ type: 'BotMessageClaimed', data: { user_id: command.userId, message_id: command.messageId, at } }];
    case 'published':
      if (state.status !== 'claimed' || state.postId !== null) return [];
      return [{ type: 'BotMessagePublished', data: { user_id: command.userId, message_id: command.messageId, post_id: command.postId, at } }];
    default:
      return assertNever(command);
  }
}

export const botMessageDecider: Decider<BotMessageState, BotMessageCommand, BotMessageEvent> = {
  initialState: { status: 'none' },
  evolve: (state, event) => {
    switch (event.type) {
      case 'BotMessageClaimed':
        return { status: 'claimed', postId: null };
      case 'BotMessagePublished':
        return { status: 'claimed', postId: event.data.post_id };
      default:
        return assertNever(event);
    }
  },
  decide,
};
