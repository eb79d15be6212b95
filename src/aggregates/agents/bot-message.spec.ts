import { deciderKit } from '../../../test/support/decider-kit';
import { botMessageDecider } from './bot-message';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given, history } = deciderKit(botMessageDecider, now);
const claim = { kind: 'claim', userId: 'b', messageId: 'm' } as const;
const published = { kind: 'published', userId: 'b', messageId: 'm', postId: 'p1' } as const;

describe('bot message', () => {
  it('given nothing, when claimed, then it is claimed', () =>
    given().when(claim).then({ type: 'BotMessageClaimed', data: { user_id: 'b', message_id: 'm', at: now.toISOString() } }));

  it('given a claimed message, when claimed again, then it is a duplicate', () => given(...history(claim)).when(claim).thenRefused('conflict', 'duplicate'));

  it('given a claimed message, when its post is recorded twice, then the first post id stays', () => {
    expect(given(...history(claim)).when(published).state()).toEqual({ status: 'claimed', postId: 'p1' });
    given(...history(claim, published)).when({ ...published, postId: 'p2' }).thenNothing();
  });
});
