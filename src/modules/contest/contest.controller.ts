/**
 * The hive contest under /api/hive/contest (SPEC §4.5). Info, leaderboard and
 * the MCP snippet are public; join needs a user; the scoring-event ingestion
 * route is for admins and operators (the emitting subsystems).
 */
import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CONTEST_CONFIG, type ContestWindow } from '../../config/contest.config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { RequestContext } from '../common/request-context';
import { contestInfo, mcpSnippet } from './contest-info';
import { JoinContest, type JoinReceipt, ReportScoringEvent, type ScoringReportReceipt } from './contest.commands';
import { ContestQueries, type LeaderboardPage } from './contest.queries';
import { baseUrlOf } from '../common/base-url';
import { JoinContestDto, LEADERBOARD_QUERY_SCHEMAS, leaderboardQuery, ReportScoringEventDto, scoringReport } from './contest.requests';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import { EnvelopeReply, QueryParam, Refusal, Reply } from '../common/openapi';
import { CONTEST_INFO, JOIN_RECEIPT, LEADERBOARD, SCORING_REPORT } from './contest.replies';

export type LeaderboardReply = { success: true } & LeaderboardPage;

@Controller('api/hive/contest')
export class ContestController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ContestQueries,
    @Inject(CONTEST_CONFIG) private readonly contest: ContestWindow,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private baseUrl(request: FastifyRequest): string {
    return baseUrlOf(request, this.config.http.publicBaseUrl);
  }

  @Get('info')
  @EnvelopeReply(200, CONTEST_INFO)
  info(@Req() request: FastifyRequest): Envelope<ReturnType<typeof contestInfo>> {
    return ok(contestInfo(this.contest, this.baseUrl(request)));
  }

  @Get('leaderboard')
  @Reply(200, LEADERBOARD)
  @QueryParam('track', LEADERBOARD_QUERY_SCHEMAS.track)
  @QueryParam('limit', LEADERBOARD_QUERY_SCHEMAS.limit)
  async leaderboard(@Query() query: Record<string, unknown>): Promise<LeaderboardReply> {
    const { track, limit } = leaderboardQuery(query);
    return { success: true, ...(await this.queries.leaderboardPage(track, limit)) };
  }

  @Get('claude-code.mcp')
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'an MCP client configuration (JSON, served as text/plain) pointing at this node', content: { 'text/plain': { schema: { type: 'string' } } } })
  @Header('content-type', 'text/plain; charset=utf-8')
  mcp(@Req() request: FastifyRequest): string {
    return mcpSnippet(this.baseUrl(request));
  }

  @Post('join')
  @HttpCode(200)
  @Reply(200, JOIN_RECEIPT, 'joined, or the first receipt again with `already_registered: true`')
  @Refusal(409, '`contest has ended`')
  @Authenticated()
  join(@CurrentUser() user: AuthUser, @Body() body: JoinContestDto, @RequestContext() context: CommandContext): Promise<JoinReceipt> {
    return this.commands.execute(new JoinContest({ userId: user.id, track: body.track }, context));
  }

  /** Ingestion of scoring events from the emitting subsystems; a repeated source is a no-op. */
  @Post('events')
  @HttpCode(202)
  @EnvelopeReply(202, SCORING_REPORT, 'recorded, or `recorded: false` for a repeat with the same facts')
  @Refusal(409, 'the source was reported before with other facts')
  @Refusal(404, 'unknown user')
  @Authenticated('admin', 'operator')
  async report(@Body() body: ReportScoringEventDto, @RequestContext() context: CommandContext): Promise<Envelope<ScoringReportReceipt>> {
    return ok(await this.commands.execute(new ReportScoringEvent(scoringReport(body), context)));
  }
}
