/**
 * Challenges (social-routes §15): time-boxed goals a user progresses in and
 * claims a reward for once.
 *
 * - Rotating challenges come from the clock, so some are always active with
 *   no background job: a daily one per UTC day (`daily-2026-12-07`) and a
 *   weekly one per week starting on Monday (`weekly-2026-12-07`, named by its
 *   Monday), each taken from a fixed list by the day's or the week's number.
 *   Their id is their definition: `rotatingChallenge(id)` gives it back.
 * - An admin creates more (POST /challenges, an addition to the contract):
 *   stream `challenge-<id>`, ChallengeCreated once.
 * - A user's entry in a challenge is its own stream,
 *   `challengeEntry-<challengeId>:<userId>`: progress joins it (target from
 *   the criteria, default 10), completes it at the target, and the reward is
 *   claimed once on that one stream, however many claims race.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { Rewards } from './achievements';

export const CHALLENGE_NOT_FOUND = 'Challenge not found';
export const NOT_COMPLETED = 'Challenge not completed or not found';
export const NOT_ACTIVE = 'Challenge is not active';
export const DEFAULT_TARGET = 10;
export const MAX_TARGET = 1_000_000;

export const CHALLENGE_TYPES = ['daily', 'weekly', 'special'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

export interface ChallengeCriteria {
  action?: string;
  target?: number;
}

/** A challenge as the routes show it (without a user's progress). */
export interface Challenge {
  id: string;
  title: string;
  description: string;
  challenge_type: ChallengeType;
  criteria: ChallengeCriteria;
  reward_pulse: number;
  reward_spark: number;
  reward_signal: number;
  reward_xp: number;
  starts_at: string;
  ends_at: string;
  created_by: string | null;
  created_at: string;
}

type Template = Pick<Challenge, 'title' | 'description' | 'criteria' | 'reward_pulse' | 'reward_spark' | 'reward_signal' | 'reward_xp'>;

const DAILY: readonly Template[] = [
  { title: 'Say something', description: 'Publish a post today.', criteria: { action: 'post', target: 1 }, reward_pulse: 0, reward_spark: 10, reward_signal: 0, reward_xp: 20 },
  { title: 'Join the conversation', description: 'Write 3 comments today.', criteria: { action: 'comment', target: 3 }, reward_pulse: 0, reward_spark: 10, reward_signal: 0, reward_xp: 20 },
  { title: 'Spread the love', description: 'Upvote 5 posts or comments today.', criteria: { action: 'upvote', target: 5 }, reward_pulse: 5, reward_spark: 5, reward_signal: 0, reward_xp: 15 },
  { title: 'Meet someone new', description: 'Follow 2 people today.', criteria: { action: 'follow', target: 2 }, reward_pulse: 5, reward_spark: 5, reward_signal: 0, reward_xp: 15 },
  { title: 'Explore the agents', description: 'Visit 3 agent profiles today.', criteria: { action: 'explore_agents', target: 3 }, reward_pulse: 0, reward_spark: 10, reward_signal: 0, reward_xp: 15 },
  { title: 'Share a thought', description: 'Publish 2 posts today.', criteria: { action: 'post', target: 2 }, reward_pulse: 0, reward_spark: 15, reward_signal: 0, reward_xp: 25 },
  { title: 'Be helpful', description: 'Write 5 comments today.', criteria: { action: 'comment', target: 5 }, reward_pulse: 5, reward_spark: 10, reward_signal: 0, reward_xp: 25 },
];

const WEEKLY: readonly Template[] = [
  { title: 'Weekly writer', description: 'Publish 5 posts this week.', criteria: { action: 'post', target: 5 }, reward_pulse: 10, reward_spark: 40, reward_signal: 0.05, reward_xp: 100 },
  { title: 'Weekly commentator', description: 'Write 20 comments this week.', criteria: { action: 'comment', target: 20 }, reward_pulse: 10, reward_spark: 40, reward_signal: 0.05, reward_xp: 100 },
  { title: 'Community builder', description: 'Join or invite into 3 communities this week.', criteria: { action: 'community', target: 3 }, reward_pulse: 15, reward_spark: 30, reward_signal: 0.05, reward_xp: 80 },
  { title: 'Curator', description: 'Vote 10 times on posts or comments this week.', criteria: { action: 'upvote' }, reward_pulse: 10, reward_spark: 30, reward_signal: 0.05, reward_xp: 80 },
];

const DAY_MS = 86_400_000;
const DAILY_ID = /^daily-(\d{4}-\d{2}-\d{2})$/;
const WEEKLY_ID = /^weekly-(\d{4}-\d{2}-\d{2})$/;

/** Midnight UTC of a YYYY-MM-DD that is a real date, or null. */
function dayStart(day: string): number | null {
  const t = Date.parse(`${day}T00:00:00.000Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === day ? t : null;
}

function rotating(id: string, type: 'daily' | 'weekly', start: number, days: number, template: Template): Challenge {
  const starts = new Date(start).toISOString();
  return { id, ...template, criteria: { ...template.criteria }, challenge_type: type, starts_at: starts, ends_at: new Date(start + days * DAY_MS - 1).toISOString(), created_by: null, created_at: starts };
}

const dailyOf = (start: number): Challenge => {
  const day = Math.floor(start / DAY_MS);
  return rotating(`daily-${new Date(start).toISOString().slice(0, 10)}`, 'daily', start, 1, DAILY[day % DAILY.length]);
};

const weeklyOf = (monday: number): Challenge => {
  const week = Math.floor(monday / (7 * DAY_MS));
  return rotating(`weekly-${new Date(monday).toISOString().slice(0, 10)}`, 'weekly', monday, 7, WEEKLY[week % WEEKLY.length]);
};

/** The rotating challenges active at `now`: today's and this week's. */
export function rotatingChallenges(now: Date): Challenge[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  const sinceMonday = (new Date(today).getUTCDay() + 6) % 7;
  return [dailyOf(today), weeklyOf(today - sinceMonday * DAY_MS)];
}

/** The rotating challenge an id names (past, present or future), or null. */
export function rotatingChallenge(id: string): Challenge | null {
  const daily = DAILY_ID.exec(id);
  if (daily) {
    const start = dayStart(daily[1]);
    return start === null ? null : dailyOf(start);
  }
  const weekly = WEEKLY_ID.exec(id);
  if (weekly) {
    const start = dayStart(weekly[1]);
    return start === null || new Date(start).getUTCDay() !== 1 ? null : weeklyOf(start);
  }
  return null;
}

export function isActive(challenge: Pick<Challenge, 'starts_at' | 'ends_at'>, now: Date): boolean {
  const t = now.getTime();
  return Date.parse(challenge.starts_at) <= t && t <= Date.parse(challenge.ends_at);
}

/** The target of a challenge: its criteria's, default 10. */
export function targetOf(challenge: Pick<Challenge, 'criteria'>): number {
  const target = challenge.criteria.target;
  return typeof target === 'number' && Number.isInteger(target) && target >= 1 ? target : DEFAULT_TARGET;
}

export function rewardsOf(challenge: Pick<Challenge, 'reward_pulse' | 'reward_spark' | 'reward_signal' | 'reward_xp'>): Rewards {
  return { pulse: challenge.reward_pulse, spark: challenge.reward_spark, signal: challenge.reward_signal, xp: challenge.reward_xp };
}

// --- a challenge an admin created: stream `challenge-<id>` ---

export const challengeStreamId = (id: string): string => `challenge-${id}`;

export type ChallengeEvent = { type: 'ChallengeCreated'; data: Challenge };

export type ChallengeState = { status: 'none' } | { status: 'created'; challenge: Challenge };

export type ChallengeCommand = { kind: 'create'; challenge: Omit<Challenge, 'created_at'> };

export const challengeDecider: Decider<ChallengeState, ChallengeCommand, ChallengeEvent> = {
  initialState: { status: 'none' },
  evolve(_state, event) {
    switch (event.type) {
      case 'ChallengeCreated':
        return { status: 'created', challenge: event.data };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'create': {
        if (state.status !== 'none') throw new DomainError('conflict', 'Challenge already exists');
        const c = command.challenge;
        if (Date.parse(c.ends_at) <= Date.parse(c.starts_at)) throw new DomainError('invalid', 'ends_at must be after starts_at');
        return [{ type: 'ChallengeCreated', data: { ...c, created_at: now.toISOString() } }];
      }
      default:
        return assertNever(command.kind);
    }
  },
};

// --- a user's entry in a challenge: stream `challengeEntry-<challengeId>:<userId>` ---

export const challengeEntryId = (challengeId: string, userId: string): string => `${challengeId}:${userId}`;
export const challengeEntryStreamId = (challengeId: string, userId: string): string => `challengeEntry-${challengeEntryId(challengeId, userId)}`;

interface EntryKey {
  challenge_id: string;
  user_id: string;
}

export type ChallengeEntryEvent =
  | { type: 'ChallengeJoined'; data: EntryKey & { target: number; reward_pulse: number; reward_spark: number; reward_signal: number; reward_xp: number; joined_at: string } }
  | { type: 'ChallengeProgressed'; data: EntryKey & { increment: number; progress: number; target: number; at: string } }
  | { type: 'ChallengeCompleted'; data: EntryKey & { completed_at: string } }
  | { type: 'ChallengeRewardClaimed'; data: EntryKey & Rewards & { claimed_at: string } };

export type ChallengeEntryState =
  | { status: 'none' }
  | { status: 'joined'; challengeId: string; userId: string; target: number; progress: number; rewards: Rewards; completed: boolean; claimed: boolean };

export type ChallengeEntryCommand =
  | { kind: 'progress'; challenge: Challenge; userId: string; increment: number }
  | { kind: 'claim'; challengeId: string; userId: string };

export const challengeEntryDecider: Decider<ChallengeEntryState, ChallengeEntryCommand, ChallengeEntryEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'ChallengeJoined': {
        const d = event.data;
        return {
          status: 'joined',
          challengeId: d.challenge_id,
          userId: d.user_id,
          target: d.target,
          progress: 0,
          rewards: { pulse: d.reward_pulse, spark: d.reward_spark, signal: d.reward_signal, xp: d.reward_xp },
          completed: false,
          claimed: false,
        };
      }
      case 'ChallengeProgressed':
        return state.status === 'joined' ? { ...state, progress: event.data.progress } : state;
      case 'ChallengeCompleted':
        return state.status === 'joined' ? { ...state, completed: true } : state;
      case 'ChallengeRewardClaimed':
        return state.status === 'joined' ? { ...state, claimed: true } : state;
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'progress': {
        const { challenge, userId, increment } = command;
        if (!Number.isInteger(increment) || increment < 1) throw new DomainError('invalid', 'increment must be a positive integer');
        if (state.status === 'joined' && state.completed) return [];
        if (!isActive(challenge, now)) throw new DomainError('invalid', NOT_ACTIVE);
        const key = { challenge_id: challenge.id, user_id: userId };
        const events: ChallengeEntryEvent[] = [];
        let target: number;
        let progress: number;
        if (state.status === 'none') {
          target = targetOf(challenge);
          progress = 0;
          events.push({ type: 'ChallengeJoined', data: { ...key, target, ...rewardFields(rewardsOf(challenge)), joined_at: at } });
        } else {
          target = state.target;
          progress = state.progress;
        }
        const next = Math.min(progress + increment, target);
        events.push({ type: 'ChallengeProgressed', data: { ...key, increment, progress: next, target, at } });
        if (next >= target) events.push({ type: 'ChallengeCompleted', data: { ...key, completed_at: at } });
        return events;
      }
      case 'claim': {
        if (state.status !== 'joined' || !state.completed) throw new DomainError('not_found', NOT_COMPLETED);
        if (state.claimed) return [];
        return [{ type: 'ChallengeRewardClaimed', data: { challenge_id: command.challengeId, user_id: command.userId, ...state.rewards, claimed_at: at } }];
      }
      default:
        return assertNever(command);
    }
  },
};

function rewardFields(r: Rewards) {
  return { reward_pulse: r.pulse, reward_spark: r.spark, reward_signal: r.signal, reward_xp: r.xp };
}
