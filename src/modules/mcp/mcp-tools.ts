/**
 * The tools of the MCP server (docs/api.md "MCP"), built for one caller: each
 * tool acts as the authenticated user the request's credential names, never
 * as a user named in its arguments, and dispatches the same command or query
 * as the HTTP route it mirrors, through the same field readers:
 *
 * - `chat`: POST /chat (RunPrompt; the `chat` and `pipeline_ip` rate limits);
 * - `contest_join`: POST /api/hive/contest/join (JoinContest);
 * - `contest_leaderboard`: GET /api/hive/contest/leaderboard;
 * - `encounter_matches`: GET /api/social/encounter/matches.
 *
 * A refusal (a DomainError: bad input, contest ended, rate limited, the
 * guardrail) comes back as a tool result with `isError: true` and the same
 * message the HTTP route gives; the SDK does that for any error a tool throws.
 */
import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type Track, TRACKS } from '../../aggregates/contest/scoring';
import { PROMPT_ID_PATTERN } from '../../aggregates/chat/chat.events';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { RateLimits } from '../common/rate-limits/rate-limits';
import type { ChatReply } from '../chat/chat-pipeline';
import { RunPrompt } from '../chat/chat.commands';
import { chatBody, PROMPT_MAX_CHARS } from '../chat/chat.requests';
import { JoinContest } from '../contest/contest.commands';
import { ContestQueries } from '../contest/contest.queries';
import { LEADERBOARD_MAX_LIMIT, leaderboardQuery } from '../contest/contest.requests';
import { EncounterQueries } from '../encounter/encounter.queries';

export const MCP_SERVER_NAME = 'hive';

/** Who a request to /mcp acts as: the authenticated user, the client's address (for the per-IP limits) and the request's command context. */
export interface McpCaller {
  user: AuthUser;
  ip: string;
  context: CommandContext;
}

/** A tool's reply: the same JSON the HTTP route answers, as text (what every MCP client reads). */
function json(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] };
}

const track = z.enum(TRACKS as [Track, ...Track[]]);

@Injectable()
export class McpTools {
  constructor(
    private readonly commands: CommandBus,
    private readonly contest: ContestQueries,
    private readonly encounter: EncounterQueries,
    private readonly limits: RateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A server whose tools act for `caller`; one per request (the transport is stateless). */
  serverFor(caller: McpCaller): McpServer {
    const server = new McpServer({ name: MCP_SERVER_NAME, version: this.config.version }, { capabilities: { tools: {} } });
    const context: CommandContext = { ...caller.context, actor: caller.user.id };

    server.registerTool(
      'chat',
      {
        title: 'Chat with the agent pipeline',
        description:
          'Send a prompt to the agent pipeline as the signed-in user (POST /chat). The conversation is named by prompt_id; the reply is {response, prompt_id, flow_id, actions_completed, recipe_saved}.',
        inputSchema: {
          prompt_id: z.string().regex(PROMPT_ID_PATTERN).describe('the conversation: 1-128 letters, digits, _ or -'),
          prompt: z.string().min(1).max(PROMPT_MAX_CHARS).describe('what to ask'),
        },
        annotations: { readOnlyHint: false, openWorldHint: true },
      },
      async ({ prompt_id, prompt }) => {
        const body = chatBody({ prompt_id, prompt }, { userIdRequired: false });
        await this.limits.take(['chat', 'pipeline_ip'], { userId: caller.user.id, ip: caller.ip });
        const reply: ChatReply = await this.commands.execute(
          new RunPrompt({ ...body, userId: caller.user.id, messageId: randomUUID(), origin: 'mcp' }, context),
        );
        return json(reply);
      },
    );

    server.registerTool(
      'contest_join',
      {
        title: 'Join the hive contest',
        description:
          'Join a track of the hive contest as the signed-in user (POST /api/hive/contest/join). Joining again answers the first receipt with already_registered: true.',
        inputSchema: { track: track.describe('the track to join') },
        annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
      },
      async (args) => json(await this.commands.execute(new JoinContest({ userId: caller.user.id, track: args.track }, context))),
    );

    server.registerTool(
      'contest_leaderboard',
      {
        title: 'Hive contest leaderboard',
        description:
          'The contest leaderboard (GET /api/hive/contest/leaderboard): overall without a track, else the track’s; {data: [{rank, user_id, username, display_name, avatar_url, season_pulse, season_spark, level, level_title, score, track}], meta: {track, count}}.',
        inputSchema: {
          track: track.optional().describe('a track; absent: the overall board'),
          limit: z.number().int().min(1).max(LEADERBOARD_MAX_LIMIT).optional().describe(`entries, 1-${LEADERBOARD_MAX_LIMIT} (default 50)`),
        },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async (args) => {
        const query = leaderboardQuery({ track: args.track, limit: args.limit === undefined ? undefined : String(args.limit) });
        return json(await this.contest.leaderboardPage(query.track, query.limit));
      },
    );

    server.registerTool(
      'encounter_matches',
      {
        title: 'My encounter matches',
        description: 'The signed-in user’s encounter matches (GET /api/social/encounter/matches): {matches, count}.',
        inputSchema: {},
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async () => {
        const matches = await this.encounter.matchesOf(caller.user.id);
        return json({ matches, count: matches.length });
      },
    );

    return server;
  }
}
