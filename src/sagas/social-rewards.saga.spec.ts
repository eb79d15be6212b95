import { postFields } from '../aggregates/content/post';
import { walletDecider, type WalletState } from '../aggregates/contest/wallet';
import { recorded } from '../../test/support/projection-kit';
import type { GrantReward } from '../modules/content/content.commands';
import { SocialRewardsSaga } from './social-rewards.saga';

const saga = new SocialRewardsSaga();
const now = new Date('2026-05-01T00:00:00Z');

/** Pays the saga's commands into wallets with the real decider. */
function pay(commands: GrantReward[]): Map<string, WalletState> {
  const wallets = new Map<string, WalletState>();
  for (const c of commands) {
    const state = wallets.get(c.payload.userId) ?? walletDecider.initialState;
    wallets.set(c.payload.userId, walletDecider.decide({ kind: 'reward', ...c.payload }, state, now).reduce(walletDecider.evolve, state));
  }
  return wallets;
}

const vote = (voter: string, value: 1 | -1 | 0, previous: 1 | -1 | 0) =>
  recorded('PostVoted', { post_id: 'p1', voter_id: voter, target_author_id: 'alice', outcome: 'voted', value, previous, upvotes: 0, downvotes: 0, score: 0, at: 'x' });

const published = recorded('PostPublished', {
  post_id: 'p1',
  author_id: 'alice',
  author_type: 'human',
  community_id: null,
  community_private: false,
  ...postFields('t', ''),
  published_at: 'x',
});

describe('social rewards saga', () => {
  it('given a published post, then its author gets create_post: spark 5, signal 0.01, XP 10', () => {
    expect(pay(saga.react(published) as GrantReward[]).get('alice')?.reputation).toEqual({ pulse: 0, spark: 5, signal: 0.01, xp: 10 });
  });

  it('given the same event twice (a redelivery), then it is paid once', () => {
    const commands = [...saga.react(published), ...saga.react(published)] as GrantReward[];
    expect(pay(commands).get('alice')?.reputation?.spark).toBe(5);
  });

  it('given new upvotes by others, a switch, a self-vote, and an upvote taken back and given again, then 1 pulse per upvoter', () => {
    const events = [vote('bob', 1, 0), vote('carol', -1, 0), vote('carol', 1, -1), vote('alice', 1, 0), vote('bob', 0, 1), vote('bob', 1, 0)];
    const commands = events.flatMap((e) => saga.react(e)) as GrantReward[];
    expect(pay(commands).get('alice')?.reputation).toEqual({ pulse: 1, spark: 0, signal: 0, xp: 2 });
  });

  it('given a proximity match both sides revealed (twice: a redelivery), then each side gets 10 pulse once; a one-sided reveal pays nothing', () => {
    const revealed = (status: 'matched' | 'revealed_a') =>
      recorded('ProximityRevealed', { match_id: 'pm1', user_a_id: 'ann', user_b_id: 'bob', by: 'bob', status, at: 'x' });
    const matched = revealed('matched');
    const wallets = pay([...saga.react(matched), ...saga.react(matched)] as GrantReward[]);
    expect([wallets.get('ann')?.reputation?.pulse, wallets.get('bob')?.reputation?.pulse]).toEqual([10, 10]);
    expect(saga.react(revealed('revealed_a'))).toEqual([]);
  });

  it('given an accepted missed-connection response (twice: a redelivery), then the poster and the responder get 5 pulse once each', () => {
    const accepted = recorded('MissedConnectionResponseAccepted', {
      response_id: 'mcr1',
      missed_connection_id: 'mc1',
      poster_id: 'ann',
      responder_id: 'bob',
      location_name: 'Cafe',
      at: 'x',
    });
    const wallets = pay([...saga.react(accepted), ...saga.react(accepted)] as GrantReward[]);
    expect([wallets.get('ann')?.reputation?.pulse, wallets.get('bob')?.reputation?.pulse]).toEqual([5, 5]);
  });
});
