/**
 * Achievements, challenges, seasons and collectibles (social-routes §15),
 * under /api/social and /social. The catalogue, the rotating challenges and
 * the seasons come from code and the clock; the rest from read models.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { Achievement } from '../../aggregates/gamification/achievements';
import { type Challenge, CHALLENGE_NOT_FOUND, NOT_COMPLETED } from '../../aggregates/gamification/challenges';
import { ACHIEVEMENT_NOT_UNLOCKED } from '../../aggregates/gamification/user-achievements';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { Authenticated, OptionalViewer } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser, Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, list, pagedList, QueryParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { ClaimChallenge, type ClaimOutcome, CreateChallenge, ProgressChallenge, type ProgressOutcome, ToggleAchievementShowcase } from './achievements.commands';
import { AchievementsQueries, type ChallengeView, type Collectibles, type SeasonRow, type SeasonView, type UnlockedAchievement } from './achievements.queries';
import { ACHIEVEMENT, CHALLENGE, CHALLENGE_VIEW, CLAIM, COLLECTIBLES, PROGRESS, SEASON, SEASON_ROW, SHOWCASE, UNLOCKED_ACHIEVEMENT } from './achievements.replies';
import { CHALLENGE_BODY_SCHEMA, challengeRequest, looksLikeChallengeId, PROGRESS_BODY_SCHEMA, progressRequest } from './achievements.requests';

const LEADERBOARD_PAGE = { defaultLimit: 50, cap: 100 };

@Controller(socialPaths('achievements'))
export class AchievementsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AchievementsQueries,
    private readonly clock: Clock,
  ) {}

  @Get()
  @EnvelopeReply(200, list(ACHIEVEMENT), 'the 48 achievements: the permanent ones, then the current season’s seasonal ones')
  catalogue(): Envelope<Achievement[]> {
    return ok(this.queries.catalogue(this.clock.now()));
  }

  @Get(':user_id')
  @EnvelopeReply(200, list(UNLOCKED_ACHIEVEMENT), 'the achievements the user unlocked, most recent first')
  async unlocked(@Param('user_id') userId: string): Promise<Envelope<UnlockedAchievement[]>> {
    return ok(await this.queries.unlockedBy(userId));
  }

  @Post(':achievement_id/showcase')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, SHOWCASE, 'toggles whether the unlocked achievement is shown on the caller’s profile')
  @Refusal(404, `\`${ACHIEVEMENT_NOT_UNLOCKED}\``)
  async showcase(@Param('achievement_id') achievementId: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ is_showcased: boolean }>> {
    return ok(await this.commands.execute(new ToggleAchievementShowcase({ userId: caller.id, achievementId }, context)));
  }
}

@Controller(socialPaths('challenges'))
export class ChallengesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: AchievementsQueries,
    private readonly clock: Clock,
  ) {}

  @Get()
  @OptionalViewer()
  @EnvelopeReply(200, list(CHALLENGE_VIEW), 'the active challenges (starts_at ≤ now ≤ ends_at), ending soonest first; today’s and this week’s rotating ones always among them; a signed-in caller’s progress in each')
  async active(@Viewer() viewer: AuthUser | null): Promise<Envelope<ChallengeView[]>> {
    return ok(await this.queries.activeChallenges(this.clock.now(), viewer?.id ?? null));
  }

  @Post()
  @Authenticated('admin')
  @ReadBody(CHALLENGE_BODY_SCHEMA)
  @EnvelopeReply(201, CHALLENGE, 'the challenge created (an addition to the contract: admins add challenges beside the rotating ones)')
  @Refusal(400, '`title is required`, `ends_at must be an ISO 8601 timestamp with a zone`, `ends_at must be after starts_at`, and the optional fields’ rules')
  async create(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<Challenge>> {
    const request = challengeRequest(body);
    const challenge = await this.commands.execute(
      new CreateChallenge(
        {
          title: request.title,
          description: request.description,
          challenge_type: request.challengeType,
          criteria: request.criteria,
          reward_pulse: request.rewards.pulse,
          reward_spark: request.rewards.spark,
          reward_signal: request.rewards.signal,
          reward_xp: request.rewards.xp,
          starts_at: request.startsAt ?? this.clock.now().toISOString(),
          ends_at: request.endsAt,
          created_by: caller.id,
        },
        context,
      ),
    );
    return ok(challenge);
  }

  @Get(':id')
  @OptionalViewer()
  @EnvelopeReply(200, CHALLENGE_VIEW, 'the challenge, active or not, with a signed-in caller’s progress')
  @Refusal(404, `\`${CHALLENGE_NOT_FOUND}\``)
  async get(@Param('id') id: string, @Viewer() viewer: AuthUser | null): Promise<Envelope<ChallengeView>> {
    const challenge = looksLikeChallengeId(id) ? await this.queries.challenge(id, this.clock.now(), viewer?.id ?? null) : null;
    if (!challenge) throw new DomainError('not_found', CHALLENGE_NOT_FOUND);
    return ok(challenge);
  }

  @Post(':id/progress')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(PROGRESS_BODY_SCHEMA)
  @EnvelopeReply(200, PROGRESS, 'joins the challenge on the first call (target from its criteria, default 10); progress stops at the target; once completed, `already_complete: true`')
  @Refusal(400, '`increment must be an integer from 1 to 1000`, `Challenge is not active`')
  @Refusal(404, `\`${CHALLENGE_NOT_FOUND}\``)
  async progress(@Param('id') id: string, @Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ProgressOutcome>> {
    const increment = progressRequest(body);
    if (!looksLikeChallengeId(id)) throw new DomainError('not_found', CHALLENGE_NOT_FOUND);
    return ok(await this.commands.execute(new ProgressChallenge({ challengeId: id, userId: caller.id, increment }, context)));
  }

  @Post(':id/claim')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, CLAIM, 'the rewards, paid into the wallet once; a repeat answers `{already_claimed: true}`')
  @Refusal(404, `\`${NOT_COMPLETED}\``)
  async claim(@Param('id') id: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ClaimOutcome>> {
    if (!looksLikeChallengeId(id)) throw new DomainError('not_found', NOT_COMPLETED);
    return ok(await this.commands.execute(new ClaimChallenge({ challengeId: id, userId: caller.id }, context)));
  }
}

@Controller(socialPaths('seasons'))
export class SeasonsController {
  constructor(
    private readonly queries: AchievementsQueries,
    private readonly clock: Clock,
  ) {}

  @Get('current')
  @EnvelopeReply(200, SEASON, 'the calendar quarter of now, always one')
  current(): Envelope<SeasonView> {
    const now = this.clock.now();
    return ok(this.queries.season(this.queries.seasonNamed('current', now), now));
  }

  @Get(':id/leaderboard')
  @QueryParam('limit', pageQuerySchemas(LEADERBOARD_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(LEADERBOARD_PAGE).offset)
  @Reply(200, pagedList(SEASON_ROW), 'ranked by the pulse and spark earned within the season (`2026-q4`; any other id: the current season)')
  @Refusal(400, 'a limit or offset that is not a whole number')
  async leaderboard(@Param('id') id: string, @Query() query: Record<string, unknown>): Promise<PagedEnvelope<SeasonRow>> {
    const page = pageQuery(query, LEADERBOARD_PAGE);
    const { rows, total } = await this.queries.leaderboard(this.queries.seasonNamed(id, this.clock.now()), page);
    return paged(rows, total, page);
  }

  @Get(':id/achievements')
  @EnvelopeReply(200, list(ACHIEVEMENT), 'the seasonal achievements of that season; none for an id that names no season')
  achievements(@Param('id') id: string): Envelope<Achievement[]> {
    return ok(this.queries.seasonAchievements(id));
  }
}

@Controller(socialPaths('collectibles'))
export class CollectiblesController {
  constructor(private readonly queries: AchievementsQueries) {}

  @Get(':user_id')
  @EnvelopeReply(200, COLLECTIBLES, 'the showcased achievements (most recent first), level and title; level 1, Newcomer, without a wallet')
  async collectibles(@Param('user_id') userId: string): Promise<Envelope<Collectibles>> {
    return ok(await this.queries.collectibles(userId));
  }
}
