/**
 * One vote per user and target (social-routes §21.4), decided by the target's
 * own stream: the tally holds each voter's current vote, so a repeat in the
 * same direction removes it, the other direction switches it, and the counts
 * are always the sum of the voters' votes, whatever the order of concurrent
 * requests.
 */
import type { VoteFacts, VoteOutcome, VoteValue } from './content.events';

export interface Tally {
  upvotes: number;
  downvotes: number;
  /** voter id → +1 or -1 (absent: no vote) */
  votes: Readonly<Record<string, 1 | -1>>;
}

export const EMPTY_TALLY: Tally = { upvotes: 0, downvotes: 0, votes: {} };

export type VoteDirection = 'up' | 'down' | 'clear';

export const scoreOf = (tally: Pick<Tally, 'upvotes' | 'downvotes'>): number => tally.upvotes - tally.downvotes;

export const voteOf = (tally: Tally, voterId: string): VoteValue => tally.votes[voterId] ?? 0;

/**
 * What a vote in `direction` by `voterId` does: null when nothing changes
 * (clearing a vote that does not exist: `DELETE …/vote` is idempotent).
 */
export function castVote(
  tally: Tally,
  voterId: string,
  direction: VoteDirection,
  targetAuthorId: string,
  at: string,
): VoteFacts | null {
  const previous = voteOf(tally, voterId);
  let value: VoteValue;
  let outcome: VoteOutcome;
  if (direction === 'clear') {
    if (previous === 0) return null;
    value = 0;
    outcome = 'removed';
  } else {
    const wanted: 1 | -1 = direction === 'up' ? 1 : -1;
    if (previous === wanted) {
      value = 0;
      outcome = 'removed';
    } else {
      value = wanted;
      outcome = previous === 0 ? 'voted' : 'changed';
    }
  }
  const counts = countsWith(tally, previous, value);
  return { voter_id: voterId, target_author_id: targetAuthorId, outcome, value, previous, ...counts, score: scoreOf(counts), at };
}

function countsWith(tally: Pick<Tally, 'upvotes' | 'downvotes'>, previous: VoteValue, value: VoteValue): { upvotes: number; downvotes: number } {
  return {
    upvotes: tally.upvotes - (previous === 1 ? 1 : 0) + (value === 1 ? 1 : 0),
    downvotes: tally.downvotes - (previous === -1 ? 1 : 0) + (value === -1 ? 1 : 0),
  };
}

/** The tally after a vote event (a new value; the voter map is copied, never changed in place). */
export function applyVote(tally: Tally, facts: Pick<VoteFacts, 'voter_id' | 'value' | 'previous'>): Tally {
  const votes = { ...tally.votes };
  if (facts.value === 0) delete votes[facts.voter_id];
  else votes[facts.voter_id] = facts.value;
  return { ...countsWith(tally, facts.previous, facts.value), votes };
}
