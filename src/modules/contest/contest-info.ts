/** The contest info record (original-system-facts "Hive contest": field names existing clients read). */
import {
  EMBODIED_SUCCESS_THRESHOLD,
  SCORE_SOURCES,
  SCORE_WEIGHTS,
  SCORING_EVENT_TYPES,
  type Track,
} from '../../aggregates/contest/scoring';
import type { ContestWindow } from '../../config/contest.config';

const TRACK_INFO: Record<Track, { name: string; description: string; example_contributions: string[] }> = {
  digital: {
    name: 'Digital',
    description: 'Agents, recipes and benchmarks that do useful work in software.',
    example_contributions: ['Publish a recipe to the app marketplace', 'Have an expert agent adopted', 'Prove a benchmark'],
  },
  embodied: {
    name: 'Embodied',
    description: 'Robots and hardware acting in the physical world, and the compute that serves them.',
    example_contributions: ['Run a robot episode with a success rate of at least 0.7', 'Register a robot skill', 'Serve GPU hours to the hive'],
  },
  human_wellness: {
    name: 'Human wellness',
    description: 'Contributions whose outcomes for people are attested by the guardrail.',
    example_contributions: ['Have a wellness outcome attested', 'Get a human correction accepted', 'Prove a wellness benchmark'],
  },
};

/** The environment variable the snippet reads the caller's API key from (Claude Code expands `${VAR}` in headers). */
export const MCP_API_KEY_VARIABLE = 'HIVE_API_KEY';

export function contestInfo(config: ContestWindow, baseUrl: string) {
  return {
    name: 'Hive Contest',
    tagline: 'Build with the hive, for humans first.',
    humans_first_principle:
      'Every submission is attested against human wellness by the guardrail; an agent that ignores human outcomes scores zero.',
    co_creation_principle: 'Humans and agents create together: every contribution is credited as season_spark to the person behind it.',
    public_url: `${baseUrl}/api/hive/contest/info`,
    starts_at: config.startsAt.toISOString(),
    ends_at: config.endsAt.toISOString(),
    tracks: (Object.keys(TRACK_INFO) as Track[]).map((id) => ({ id, ...TRACK_INFO[id] })),
    score_weights: Object.fromEntries(
      SCORING_EVENT_TYPES.map((type) => [type, { ...SCORE_WEIGHTS[type], source: SCORE_SOURCES[type] }]),
    ),
    embodied_success_threshold: EMBODIED_SUCCESS_THRESHOLD,
    how_to_join: [
      'Register or log in: POST /api/social/register or /api/social/login',
      'Join a track: POST /api/hive/contest/join with {"track": "digital" | "embodied" | "human_wellness"} and Authorization: Bearer <TOKEN>',
      `Connect your coding agent: create an API key (POST /api/v1/intelligence/keys), export it as ${MCP_API_KEY_VARIABLE}, and paste ${baseUrl}/api/hive/contest/claude-code.mcp into your MCP client configuration (its server is ${baseUrl}/mcp)`,
      'Contribute: attested contributions land as season_spark in your wallet; follow GET /api/hive/contest/leaderboard',
    ],
    prize_model: {
      spark_split_90_9_1: { user_pool: 0.9, infrastructure_pool: 0.09, central: 0.01 },
      recognition: 'Top contributors of each track are featured on the leaderboard and credited in the hive.',
    },
    onramp: { mcp_config_url: `${baseUrl}/api/hive/contest/claude-code.mcp` },
  };
}

/**
 * The ready-to-paste MCP client configuration pointing at this node's MCP
 * server: Claude Code's `.mcp.json` shape for a streamable-HTTP server
 * (`type: "http"`, `url`, `headers`), the API key taken from the
 * environment so the file holds no secret.
 */
export function mcpSnippet(baseUrl: string): string {
  const server = { type: 'http', url: `${baseUrl}/mcp`, headers: { 'X-API-Key': `\${${MCP_API_KEY_VARIABLE}}` } };
  return `${JSON.stringify({ mcpServers: { 'hive-contest': server } }, null, 2)}\n`;
}
