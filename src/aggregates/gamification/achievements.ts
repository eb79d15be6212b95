/**
 * The achievements catalogue (social-routes §15): pure data in code, the same
 * on every node, so "seeded at startup" needs no write. 44 permanent
 * achievements and 4 seasonal ones per season (the seasons of
 * ./seasons.ts): `GET /achievements` lists 48, the permanent ones and the
 * current season's.
 *
 * - Ids are derived from slugs: `ach_<slug>`; a seasonal one adds its season
 *   (`ach_season_author_2026-q4`), so an id always names one achievement.
 * - Criteria are data. A counter `{event, count}` is met when the user did the
 *   event `count` times (`within: 'season'`: within one season); a stat
 *   `{stat, threshold}` when the stat (level, streak) reaches the threshold.
 * - Rewards follow the rarity (REWARDS_BY_RARITY) and are paid once into the
 *   wallet when the achievement unlocks (src/sagas/achievements.saga.ts).
 */
import { seasonById, type Season } from './seasons';

/** What the achievements saga counts per user, each from the events named in docs/events.md. */
export const METRICS = [
  'post_published',
  'comment_posted',
  'upvote_received',
  'vote_cast',
  'user_followed',
  'follower_gained',
  'community_joined',
  'community_created',
  'agent_created',
  'task_completed',
  'recipe_shared',
  'recipe_forked',
  'rating_given',
  'referral_activated',
  'proximity_matched',
  'daily_checkin',
  'boost_purchased',
  'onboarding_completed',
] as const;
export type Metric = (typeof METRICS)[number];

/** Values observed rather than counted: the highest seen counts. */
export const STATS = ['level', 'streak_days'] as const;
export type Stat = (typeof STATS)[number];

export type Criteria = { event: Metric; count: number; within?: 'season' } | { stat: Stat; threshold: number };

export const CATEGORIES = ['content', 'social', 'community', 'agents', 'economy', 'exploration', 'streaks', 'seasonal'] as const;
export type Category = (typeof CATEGORIES)[number];

export const RARITIES = ['common', 'uncommon', 'rare', 'epic', 'legendary'] as const;
export type Rarity = (typeof RARITIES)[number];

export interface Rewards {
  pulse: number;
  spark: number;
  signal: number;
  xp: number;
}

export const REWARDS_BY_RARITY: Record<Rarity, Rewards> = {
  common: { pulse: 0, spark: 5, signal: 0, xp: 10 },
  uncommon: { pulse: 5, spark: 15, signal: 0, xp: 25 },
  rare: { pulse: 10, spark: 30, signal: 0.1, xp: 50 },
  epic: { pulse: 25, spark: 75, signal: 0.25, xp: 100 },
  legendary: { pulse: 50, spark: 150, signal: 0.5, xp: 250 },
};

/** An achievement as the routes show it (the contract's fields). */
export interface Achievement {
  id: string;
  slug: string;
  name: string;
  description: string;
  icon_url: string | null;
  category: Category;
  rarity: Rarity;
  reward_pulse: number;
  reward_spark: number;
  reward_signal: number;
  reward_xp: number;
  criteria: Criteria;
  is_seasonal: boolean;
  season_id: string | null;
}

type Entry = [slug: string, name: string, description: string, category: Category, rarity: Rarity, criteria: Criteria];

const count = (event: Metric, n: number): Criteria => ({ event, count: n });
const stat = (s: Stat, threshold: number): Criteria => ({ stat: s, threshold });

const PERMANENT: readonly Entry[] = [
  // content
  ['first_post', 'First Post', 'Publish your first post.', 'content', 'common', count('post_published', 1)],
  ['prolific_writer', 'Prolific Writer', 'Publish 10 posts.', 'content', 'uncommon', count('post_published', 10)],
  ['content_machine', 'Content Machine', 'Publish 50 posts.', 'content', 'rare', count('post_published', 50)],
  ['centurion_author', 'Centurion Author', 'Publish 100 posts.', 'content', 'epic', count('post_published', 100)],
  ['first_comment', 'First Words', 'Write your first comment.', 'content', 'common', count('comment_posted', 1)],
  ['conversationalist', 'Conversationalist', 'Write 10 comments.', 'content', 'uncommon', count('comment_posted', 10)],
  ['debate_club', 'Debate Club', 'Write 50 comments.', 'content', 'rare', count('comment_posted', 50)],
  // social
  ['first_follow', 'First Follow', 'Follow someone.', 'social', 'common', count('user_followed', 1)],
  ['networker', 'Networker', 'Follow 10 people.', 'social', 'uncommon', count('user_followed', 10)],
  ['first_follower', 'First Follower', 'Gain your first follower.', 'social', 'common', count('follower_gained', 1)],
  ['rising_star', 'Rising Star', 'Gain 10 followers.', 'social', 'uncommon', count('follower_gained', 10)],
  ['influencer', 'Influencer', 'Gain 100 followers.', 'social', 'epic', count('follower_gained', 100)],
  ['first_upvote', 'Appreciated', 'Receive your first upvote from someone else.', 'social', 'common', count('upvote_received', 1)],
  ['well_received', 'Well Received', 'Receive 10 upvotes.', 'social', 'uncommon', count('upvote_received', 10)],
  ['crowd_favorite', 'Crowd Favorite', 'Receive 100 upvotes.', 'social', 'epic', count('upvote_received', 100)],
  // community
  ['first_vote', 'Civic Debut', 'Cast your first vote.', 'community', 'common', count('vote_cast', 1)],
  ['civic_duty', 'Civic Duty', 'Cast 50 votes.', 'community', 'rare', count('vote_cast', 50)],
  ['joiner', 'Joiner', 'Join a community.', 'community', 'common', count('community_joined', 1)],
  ['community_hopper', 'Community Hopper', 'Join 5 communities.', 'community', 'uncommon', count('community_joined', 5)],
  ['founder', 'Founder', 'Create a community.', 'community', 'uncommon', count('community_created', 1)],
  ['first_rating', 'Critic', 'Rate another user.', 'community', 'common', count('rating_given', 1)],
  ['fair_judge', 'Fair Judge', 'Give 25 ratings.', 'community', 'rare', count('rating_given', 25)],
  // agents
  ['first_agent', 'Creator', 'Create your first agent.', 'agents', 'common', count('agent_created', 1)],
  ['agent_fleet', 'Agent Fleet', 'Create 5 agents.', 'agents', 'rare', count('agent_created', 5)],
  ['task_runner', 'Task Runner', 'Complete a task assigned to you.', 'agents', 'common', count('task_completed', 1)],
  ['task_master', 'Task Master', 'Complete 25 tasks assigned to you.', 'agents', 'epic', count('task_completed', 25)],
  ['recipe_sharer', 'Recipe Sharer', 'Share a recipe.', 'agents', 'uncommon', count('recipe_shared', 1)],
  ['recipe_forker', 'Remixer', 'Fork a shared recipe.', 'agents', 'common', count('recipe_forked', 1)],
  // economy
  ['first_boost', 'Booster', 'Boost something with spark.', 'economy', 'common', count('boost_purchased', 1)],
  ['level_5', 'Level 5', 'Reach level 5.', 'economy', 'uncommon', stat('level', 5)],
  ['level_10', 'Level 10', 'Reach level 10.', 'economy', 'rare', stat('level', 10)],
  ['level_20', 'Level 20', 'Reach level 20.', 'economy', 'epic', stat('level', 20)],
  ['level_30', 'Level 30', 'Reach level 30.', 'economy', 'legendary', stat('level', 30)],
  // exploration
  ['onboarded', 'Settled In', 'Complete every onboarding step.', 'exploration', 'uncommon', count('onboarding_completed', 1)],
  ['recruiter', 'Recruiter', 'Refer a friend who becomes active.', 'exploration', 'uncommon', count('referral_activated', 1)],
  ['ambassador', 'Ambassador', 'Refer 5 friends who become active.', 'exploration', 'epic', count('referral_activated', 5)],
  ['first_match', 'Serendipity', 'Get your first proximity match.', 'exploration', 'uncommon', count('proximity_matched', 1)],
  ['social_butterfly', 'Social Butterfly', 'Get 10 proximity matches.', 'exploration', 'rare', count('proximity_matched', 10)],
  // streaks
  ['first_checkin', 'Checked In', 'Check in for the first time.', 'streaks', 'common', count('daily_checkin', 1)],
  ['streak_3', 'Warming Up', 'Keep a 3-day check-in streak.', 'streaks', 'common', stat('streak_days', 3)],
  ['streak_7', 'Week Streak', 'Keep a 7-day check-in streak.', 'streaks', 'uncommon', stat('streak_days', 7)],
  ['streak_30', 'Month Streak', 'Keep a 30-day check-in streak.', 'streaks', 'epic', stat('streak_days', 30)],
  ['streak_100', 'Unbroken', 'Keep a 100-day check-in streak.', 'streaks', 'legendary', stat('streak_days', 100)],
  ['regular', 'Regular', 'Check in on 50 days.', 'streaks', 'rare', count('daily_checkin', 50)],
];

/** The seasonal achievements every season has, each met within that season. */
const SEASONAL: readonly Entry[] = [
  ['season_author', 'Seasonal Author', 'Publish 10 posts within the season.', 'seasonal', 'rare', { event: 'post_published', count: 10, within: 'season' }],
  ['season_commenter', 'Seasonal Voice', 'Write 25 comments within the season.', 'seasonal', 'rare', { event: 'comment_posted', count: 25, within: 'season' }],
  ['season_star', 'Seasonal Star', 'Receive 50 upvotes within the season.', 'seasonal', 'epic', { event: 'upvote_received', count: 50, within: 'season' }],
  ['season_regular', 'Seasonal Regular', 'Check in on 30 days within the season.', 'seasonal', 'epic', { event: 'daily_checkin', count: 30, within: 'season' }],
];

export const ACHIEVEMENT_ID_PREFIX = 'ach_';

function achievementOf([slug, name, description, category, rarity, criteria]: Entry, season: Season | null): Achievement {
  const rewards = REWARDS_BY_RARITY[rarity];
  return {
    id: `${ACHIEVEMENT_ID_PREFIX}${slug}${season ? `_${season.id}` : ''}`,
    slug,
    name: season ? `${name} (${season.name})` : name,
    description,
    icon_url: null,
    category,
    rarity,
    reward_pulse: rewards.pulse,
    reward_spark: rewards.spark,
    reward_signal: rewards.signal,
    reward_xp: rewards.xp,
    criteria,
    is_seasonal: season !== null,
    season_id: season?.id ?? null,
  };
}

export const PERMANENT_ACHIEVEMENTS: readonly Achievement[] = PERMANENT.map((entry) => achievementOf(entry, null));

/** The seasonal achievements of a season. */
export function seasonalAchievements(season: Season): Achievement[] {
  return SEASONAL.map((entry) => achievementOf(entry, season));
}

/** The catalogue of a season: the permanent achievements, then that season's (48). */
export function catalogue(season: Season): Achievement[] {
  return [...PERMANENT_ACHIEVEMENTS, ...seasonalAchievements(season)];
}

const PERMANENT_BY_ID = new Map(PERMANENT_ACHIEVEMENTS.map((a) => [a.id, a]));
const SEASONAL_BY_SLUG = new Map(SEASONAL.map((entry) => [entry[0], entry]));

/** The achievement an id names (permanent, or seasonal of any season), or undefined. */
export function achievementById(id: string): Achievement | undefined {
  const permanent = PERMANENT_BY_ID.get(id);
  if (permanent) return permanent;
  const match = /^ach_([a-z_]+)_(\d{4}-q[1-4])$/.exec(id);
  if (!match) return undefined;
  const entry = SEASONAL_BY_SLUG.get(match[1]);
  const season = seasonById(match[2]);
  return entry && season ? achievementOf(entry, season) : undefined;
}

/** The achievements of a season whose criteria count this metric. */
export function countedBy(metric: Metric, season: Season): Achievement[] {
  return catalogue(season).filter((a) => 'event' in a.criteria && a.criteria.event === metric);
}

/** The achievements whose criteria observe this stat. */
export function observedBy(s: Stat): Achievement[] {
  return PERMANENT_ACHIEVEMENTS.filter((a) => 'stat' in a.criteria && a.criteria.stat === s);
}
