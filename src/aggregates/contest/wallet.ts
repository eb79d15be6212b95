/**
 * A user's spark wallet (stream `wallet-<userId>`). `season_spark` is the sum
 * of the amounts awarded. Every award names its source (event type and id);
 * the wallet remembers the sources it paid and ignores a repeat, so a saga
 * that sees an event twice (redelivery, restart, replay) pays once.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { CommandInput, Decider } from '../shared/decider';
import { JOIN_AWARD, TRACKS, type Track, type TrackPoints } from './scoring';

export type WalletEvent = {
  type: 'SparkAwarded';
  data: {
    user_id: string;
    /** added to season_spark: the sum of `tracks` */
    amount: number;
    /** points per contest track */
    tracks: TrackPoints;
    source_type: string;
    source_id: string;
    reason: string;
    awarded_at: string;
  };
};

export interface WalletState {
  /** the stream id names the user */
  seasonSpark: number;
  /** `<source_type>/<source_id>` of every award recorded */
  paidSources: ReadonlySet<string>;
}

export type WalletCommand = {
  kind: 'award';
  userId: string;
  tracks: TrackPoints;
  sourceType: string;
  sourceId: string;
  reason: string;
};

export function walletStreamId(userId: string): string {
  return `wallet-${userId}`;
}

/** The award for joining the contest: 1 spark on the joined track; its source is the user, so it is paid once. */
export function joinAward(userId: string, track: Track): CommandInput<WalletCommand, 'award'> {
  return { userId, tracks: { [track]: JOIN_AWARD.amount }, sourceType: JOIN_AWARD.sourceType, sourceId: userId, reason: JOIN_AWARD.reason };
}

export function sourceKey(sourceType: string, sourceId: string): string {
  return `${sourceType}/${sourceId}`;
}

export const walletDecider: Decider<WalletState, WalletCommand, WalletEvent> = {
  initialState: { seasonSpark: 0, paidSources: new Set() },
  evolve(state, event) {
    switch (event.type) {
      case 'SparkAwarded': {
        const paid = new Set(state.paidSources);
        paid.add(sourceKey(event.data.source_type, event.data.source_id));
        return { seasonSpark: state.seasonSpark + event.data.amount, paidSources: paid };
      }
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'award': {
        if (!command.sourceType || !command.sourceId) throw new DomainError('invalid', 'an award needs a source');
        if (state.paidSources.has(sourceKey(command.sourceType, command.sourceId))) return [];
        const tracks: TrackPoints = {};
        let amount = 0;
        for (const track of Object.keys(command.tracks) as Track[]) {
          const points = command.tracks[track];
          if (!TRACKS.includes(track)) throw new DomainError('invalid', `unknown track ${String(track)}`);
          if (points === undefined) continue;
          if (!Number.isInteger(points) || points <= 0) throw new DomainError('invalid', 'award points must be positive integers');
          tracks[track] = points;
          amount += points;
        }
        if (amount === 0) throw new DomainError('invalid', 'an award must be positive');
        return [
          {
            type: 'SparkAwarded',
            data: {
              user_id: command.userId,
              amount,
              tracks,
              source_type: command.sourceType,
              source_id: command.sourceId,
              reason: command.reason,
              awarded_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
