/** Reply schemas of the hive contest routes for the OpenAPI document. */
import { SCORING_EVENT_TYPES, TRACKS } from '../../aggregates/contest/scoring';
import { bool, int, list, num, obj, oneOf, orNull, str } from '../common/openapi';

const time = str({ format: 'date-time' });

export const CONTEST_INFO = obj({
  name: str(),
  tagline: str(),
  humans_first_principle: str(),
  co_creation_principle: str(),
  public_url: str(),
  starts_at: time,
  ends_at: time,
  tracks: list(obj({ id: oneOf(TRACKS), name: str(), description: str(), example_contributions: list(str()) })),
  score_weights: obj(Object.fromEntries(SCORING_EVENT_TYPES.map((type) => [type, { type: 'object', properties: { source: str() }, additionalProperties: num() }]))),
  embodied_success_threshold: num(),
  how_to_join: list(str()),
  prize_model: obj({ spark_split_90_9_1: obj({ user_pool: num(), infrastructure_pool: num(), central: num() }), recognition: str() }),
  onramp: obj({ mcp_config_url: str() }),
});

export const LEADERBOARD = obj({
  success: { const: true },
  data: list(
    obj({
      rank: int(),
      user_id: str(),
      username: orNull(str()),
      display_name: orNull(str()),
      avatar_url: orNull(str()),
      season_pulse: num(),
      season_spark: num(),
      level: int(),
      level_title: str(),
      score: num(),
      track: oneOf([...TRACKS, 'overall']),
    }),
  ),
  meta: obj({ track: oneOf([...TRACKS, 'overall']), count: int() }),
});

export const JOIN_RECEIPT = obj({ ok: { const: true }, already_registered: bool(), track: oneOf(TRACKS), joined_at: time });
export const SCORING_REPORT = obj({ event_type: oneOf(SCORING_EVENT_TYPES), source_id: str(), user_id: str(), recorded: bool(), occurred_at: time });
