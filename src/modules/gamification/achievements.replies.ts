/** Reply schemas of the achievements, challenges, seasons and collectibles routes (social-routes §15). */
import { LEVEL_TITLES } from '../../aggregates/contest/levels';
import { CATEGORIES, METRICS, RARITIES, STATS } from '../../aggregates/gamification/achievements';
import { CHALLENGE_TYPES } from '../../aggregates/gamification/challenges';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = () => str({ format: 'date-time' });

export const ACHIEVEMENT = obj({
  id: str({ description: '`ach_<slug>`; a seasonal one adds its season: `ach_<slug>_<season id>`' }),
  slug: str(),
  name: str(),
  description: str(),
  icon_url: orNull(str()),
  category: oneOf(CATEGORIES),
  rarity: oneOf(RARITIES),
  reward_pulse: num(),
  reward_spark: num(),
  reward_signal: num(),
  reward_xp: num(),
  criteria: {
    anyOf: [
      obj({ event: oneOf(METRICS), count: int({ minimum: 1 }), within: { const: 'season' } }, ['within'], { description: 'met when the user did the event `count` times (within one season)' }),
      obj({ stat: oneOf(STATS), threshold: int({ minimum: 1 }) }, [], { description: 'met when the stat reaches the threshold' }),
    ],
  },
  is_seasonal: bool(),
  season_id: orNull(str()),
});

export const UNLOCKED_ACHIEVEMENT = { allOf: [ACHIEVEMENT, obj({ unlocked_at: time(), is_showcased: bool() })] };

export const SHOWCASE = obj({ is_showcased: bool() });

const CHALLENGE_FIELDS = {
  id: str({ description: '`daily-<day>`, `weekly-<monday>` (rotating, from the clock) or `ch_<hex>` (created by an admin)' }),
  title: str({ description: 'HTML-escaped' }),
  description: str({ description: 'HTML-escaped' }),
  challenge_type: oneOf(CHALLENGE_TYPES),
  criteria: obj({ action: str(), target: int({ minimum: 1, description: 'default 10' }) }, ['action', 'target']),
  reward_pulse: num(),
  reward_spark: num(),
  reward_signal: num(),
  reward_xp: num(),
  starts_at: time(),
  ends_at: time(),
  created_by: orNull(str()),
  created_at: time(),
};

export const CHALLENGE = obj(CHALLENGE_FIELDS);

export const CHALLENGE_VIEW = obj(
  {
    ...CHALLENGE_FIELDS,
    is_active: bool(),
    user_progress: int({ description: 'signed-in callers only' }),
    user_target: int(),
    completed: bool(),
    rewarded: bool(),
  },
  ['user_progress', 'user_target', 'completed', 'rewarded'],
);

export const PROGRESS = obj({ progress: int(), target: int(), completed: bool(), already_complete: { const: true } }, ['already_complete']);

const REWARDS = obj({ pulse: num(), spark: num(), signal: num(), xp: num() });
export const CLAIM = { anyOf: [obj({ rewards: REWARDS }), obj({ already_claimed: { const: true } })] };

export const SEASON = obj({
  id: str({ description: '`<year>-q<quarter>`' }),
  name: str(),
  description: str(),
  theme: str(),
  starts_at: time(),
  ends_at: time(),
  is_active: bool(),
  rewards: list(obj({ id: str(), name: str(), reward_pulse: num(), reward_spark: num(), reward_signal: num(), reward_xp: num() }), { description: "the season's seasonal achievements and what each pays" }),
});

const LEVEL_TITLE = oneOf(LEVEL_TITLES.map((t) => t.title));

export const SEASON_ROW = obj({
  rank: int({ minimum: 1 }),
  user_id: str(),
  username: orNull(str()),
  display_name: orNull(str({ description: 'HTML-escaped' })),
  avatar_url: orNull(str()),
  season_pulse: num(),
  season_spark: num(),
  level: int({ minimum: 1 }),
  level_title: LEVEL_TITLE,
});

export const COLLECTIBLES = obj({ showcased_achievements: list(UNLOCKED_ACHIEVEMENT), level: int({ minimum: 1 }), level_title: LEVEL_TITLE });
