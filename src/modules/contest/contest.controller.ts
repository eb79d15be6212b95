/**
 * The hive contest under /api/hive/contest (SPEC §4.5). Info, leaderboard and
 * the MCP snippet are public; join needs a user; the scoring-event ingestion
 * route is for admins and operators (the emitting subsystems).
 */
import { BadRequestException, Body, Controller, Get, Header, HttpCode, Inject, NotFoundException, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { isTrack, type Track } from '../../aggregates/contest/scoring';
import { CONTEST_CONFIG, type ContestConfig } from '../../config/contest.config';
import { AccountsQueries } from '../accounts/accounts.queries';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { JoinContest, type JoinReceipt, ReportScoringEvent, type ScoringReportReceipt } from './commands/commands';
import { contestInfo, mcpSnippet } from './contest-info';
import { ContestQueries, type LeaderboardEntry } from './contest.queries';
import { JoinContestDto, ReportScoringEventDto } from './dto/contest.dto';

export const LEADERBOARD_DEFAULT_LIMIT = 50;
export const LEADERBOARD_MAX_LIMIT = 200;
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** This node's base URL as the client addressed it (Host header, validated). */
export function baseUrlOf(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = forwarded === 'https' || forwarded === 'http' ? forwarded : request.protocol === 'https' ? 'https' : 'http';
  const host = request.headers.host;
  return `${proto}://${typeof host === 'string' && HOST.test(host) ? host : 'localhost:6777'}`;
}

export interface LeaderboardReply {
  success: true;
  data: LeaderboardEntry[];
  meta: { track: Track | 'overall'; count: number };
}

@Controller('api/hive/contest')
export class ContestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContestQueries,
    private readonly accounts: AccountsQueries,
    @Inject(CONTEST_CONFIG) private readonly contest: ContestConfig,
  ) {}

  @Get('info')
  info(@Req() request: FastifyRequest): Envelope<ReturnType<typeof contestInfo>> {
    return ok(contestInfo(this.contest, baseUrlOf(request)));
  }

  @Get('leaderboard')
  async leaderboard(@Query('track') track?: unknown, @Query('limit') limit?: unknown): Promise<LeaderboardReply> {
    let board: Track | null = null;
    if (track !== undefined && track !== '' && track !== 'overall') {
      if (!isTrack(track)) throw new BadRequestException('track must be one of digital, embodied, human_wellness');
      board = track;
    }
    let n = LEADERBOARD_DEFAULT_LIMIT;
    if (limit !== undefined) {
      if (typeof limit !== 'string' || !/^\d{1,4}$/.test(limit) || +limit < 1 || +limit > LEADERBOARD_MAX_LIMIT) {
        throw new BadRequestException(`limit must be an integer from 1 to ${LEADERBOARD_MAX_LIMIT}`);
      }
      n = Number(limit);
    }
    const data = await this.queries.leaderboard(board, n);
    return { success: true, data, meta: { track: board ?? 'overall', count: data.length } };
  }

  @Get('claude-code.mcp')
  @Header('content-type', 'text/plain; charset=utf-8')
  mcp(@Req() request: FastifyRequest): string {
    return mcpSnippet(baseUrlOf(request));
  }

  @Post('join')
  @HttpCode(200)
  @Authenticated()
  join(@CurrentUser() user: AuthUser, @Body() body: JoinContestDto, @RequestContext() context: CommandContext): Promise<JoinReceipt> {
    return this.commands.execute(new JoinContest(user.id, body.track, context));
  }

  /** Ingestion of scoring events from the emitting subsystems; a repeated source is a no-op. */
  @Post('events')
  @HttpCode(202)
  @Authenticated('admin', 'operator')
  async report(@Body() body: ReportScoringEventDto, @RequestContext() context: CommandContext): Promise<Envelope<ScoringReportReceipt>> {
    if (!(await this.accounts.userById(body.user_id))) throw new NotFoundException('user not found');
    const receipt = await this.commands.execute(
      new ReportScoringEvent(
        {
          eventType: body.event_type,
          sourceId: body.source_id,
          userId: body.user_id,
          attested: body.attested,
          successRate: body.success_rate ?? null,
          occurredAt: body.occurred_at ? new Date(body.occurred_at) : null,
        },
        context,
      ),
    );
    return ok(receipt);
  }
}
