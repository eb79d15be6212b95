/**
 * The thought-experiment routes (social-routes §17), under /api/social and
 * /social: proposals, discovery, metrics, contributions, votes with their
 * weighted tally (§21.4), the lifecycle (advance, evaluate, decide), votes
 * and timeline, and the auto-evolve routes.
 *
 * Who acts (docs/security.md, "Thought experiments"): the write routes take
 * an optional credential (a credential that is sent must be valid). With one,
 * its user acts, and a body id naming someone else is 403. Without one, the
 * body's id acts, only on a `flat` node (SVC_NODE_TIER); on a regional or
 * central node a write without a credential is 401. The lifecycle routes
 * (advance, evaluate, decide) act for nobody in the original; with a
 * credential they are the creator's or a moderator's, and without one they
 * are open on a flat node only.
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { AccountsQueries, isAdminRole, isModeratorRole } from '../accounts/accounts.queries';
import { OptionallyAuthenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { Viewer } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, list, QueryParam, ReadBody, Refusal, Reply } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import {
  AdvanceExperiment,
  CastExperimentVote,
  ContributeToExperiment,
  DecideExperiment,
  EvaluateExperiment,
  type EvaluationOutcome,
  ProposeExperiment,
  SetExperimentEvolutionPaused,
} from './experiments.commands';
import {
  type DiscoveredExperiment,
  type ExperimentDetail,
  type ExperimentMetrics,
  ExperimentsQueries,
  type ExperimentTimeline,
  type ExperimentView,
  type VoteView,
  voteView,
} from './experiments.queries';
import { AUTO_EVOLVE_STATUS, DISCOVER_PAGE, EVALUATION, EXPERIMENT, EXPERIMENT_DETAIL, METRICS, TIMELINE, VOTE } from './experiments.replies';
import {
  actingUserId,
  ADVANCE_BODY_SCHEMA,
  advanceRequest,
  AUTO_EVOLVE_BODY_SCHEMA,
  autoEvolveRequest,
  CONTRIBUTE_BODY_SCHEMA,
  contributeRequest,
  CREATE_BODY_SCHEMA,
  CREATE_REQUIRED,
  createRequest,
  DECIDE_BODY_SCHEMA,
  decideRequest,
  discoverQuery,
  statusQuery,
  USER_BODY_SCHEMA,
  userRequest,
  VOTE_BODY_SCHEMA,
  voteRequest,
} from './experiments.requests';

const LIST_PAGE = { defaultLimit: 50, cap: 200 };
const DISCOVER_PAGE_RULE = { defaultLimit: 25, cap: 100 };
export const NOT_CREATOR_OR_MODERATOR = 'Only the experiment creator or a moderator can do this';
export const AUTO_EVOLVE_NOT_STARTED = 'auto-evolve is not started on this node';
const ACTS_AS =
  'Acts as the credential’s user; a body id naming someone else is 403. Without a credential the body id acts, on a `flat` node only (SVC_NODE_TIER); elsewhere 401 (docs/security.md).';
const LIFECYCLE_AUTH = 'With a credential: the creator or a moderator (403 otherwise). Without one: open on a `flat` node only (401 elsewhere).';

type PagedWithIntents = PagedEnvelope<DiscoveredExperiment> & { meta: { user_intents: Record<string, number> } };

@Controller(socialPaths('experiments'))
export class ExperimentsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ExperimentsQueries,
    private readonly accounts: AccountsQueries,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private acting(caller: AuthUser | null, bodyId: string | null, field: string): string | null {
    return actingUserId(caller, bodyId, field, this.config.nodeTier);
  }

  /** The lifecycle routes: a credential's user must be the creator or a moderator; no credential only on a flat node. */
  private async mayRunLifecycle(caller: AuthUser | null, experimentId: string): Promise<void> {
    if (!caller) {
      actingUserId(null, null, 'user_id', this.config.nodeTier);
      return;
    }
    if (isModeratorRole(caller.role)) return;
    const doc = await this.queries.doc(experimentId);
    if (doc && doc.creator_id !== caller.id) throw new DomainError('forbidden', NOT_CREATOR_OR_MODERATOR);
  }

  @Post()
  @HttpCode(201)
  @OptionallyAuthenticated()
  @ReadBody(CREATE_BODY_SCHEMA)
  @EnvelopeReply(201, EXPERIMENT, `the experiment, status proposed; its linked post (content_type thought_experiment, id post_id) and the creator’s experiment_proposed reward follow from the recorded event. ${ACTS_AS}`)
  @Refusal(400, '`creator_id, title, and hypothesis required`; a malformed field')
  @Refusal(403, 'the content filter blocks title and hypothesis; creator_id is not the caller')
  async create(@Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<Envelope<ExperimentView>> {
    const request = createRequest(body);
    const creatorId = this.acting(caller, request.creatorId, 'creator_id');
    if (creatorId === null) throw new DomainError('invalid', CREATE_REQUIRED);
    const { creatorId: _given, ...fields } = request;
    return ok(await this.commands.execute(new ProposeExperiment({ ...fields, creatorId }, context)));
  }

  @Get()
  @QueryParam('status', { enum: ['proposed', 'discussing', 'voting', 'evaluating', 'decided', 'archived'], description: 'without it, archived ones are left out' })
  @QueryParam('limit', pageQuerySchemas(LIST_PAGE).limit)
  @EnvelopeReply(200, list(EXPERIMENT), 'newest first, no meta')
  async list(@Query() query: Record<string, unknown>): Promise<Envelope<ExperimentView[]>> {
    const status = statusQuery(query.status);
    const { limit } = pageQuery({ limit: query.limit }, LIST_PAGE);
    return ok(await this.queries.list(status, limit));
  }

  @Get('discover')
  @OptionallyAuthenticated()
  @QueryParam('user_id', { type: 'string', description: 'the viewer, without a credential on a flat node; with one, absent or the caller' })
  @QueryParam('intent_category', { type: 'string' })
  @QueryParam('experiment_type', { type: 'string' })
  @QueryParam('status', { type: 'string' })
  @QueryParam('limit', pageQuerySchemas(DISCOVER_PAGE_RULE).limit)
  @QueryParam('offset', pageQuerySchemas(DISCOVER_PAGE_RULE).offset)
  @Reply(200, DISCOVER_PAGE, 'the 200 newest non-archived experiments that pass the filters, by discovery score (§21.1), with the linked post’s counts and the author; meta.user_intents: the viewer’s votes and posts per intent category')
  async discover(@Query() query: Record<string, unknown>, @Viewer() caller: AuthUser | null): Promise<PagedWithIntents> {
    const request = discoverQuery(query);
    const page = pageQuery(query, DISCOVER_PAGE_RULE);
    // a read: without a credential off a flat node, the viewer is anonymous (user_id is not trusted there)
    const userId = caller || this.config.nodeTier === 'flat' ? this.acting(caller, request.userId, 'user_id') : null;
    const { items, total, userIntents } = await this.queries.discover({ ...request, userId }, page, this.clock.now());
    return {
      success: true,
      data: items,
      meta: { total, limit: page.limit, offset: page.offset, has_more: page.offset + page.limit < total, user_intents: userIntents },
    };
  }

  @Get('core-ip')
  @EnvelopeReply(200, list(EXPERIMENT), 'the core-IP experiments, newest first (up to 200)')
  async coreIp(): Promise<Envelope<ExperimentView[]>> {
    return ok(await this.queries.coreIp());
  }

  @Get('auto-evolve/status')
  @Reply(200, AUTO_EVOLVE_STATUS, 'raw (no envelope): this node runs no auto-evolve orchestrator, so the status is always not_started; paused_experiments counts the experiments whose owners paused their evolution')
  async autoEvolveStatus(): Promise<{ started: boolean; status: 'not_started'; paused_experiments: number; message: string }> {
    return { started: false, status: 'not_started', paused_experiments: await this.queries.pausedCount(), message: AUTO_EVOLVE_NOT_STARTED };
  }

  @Post('auto-evolve')
  @OptionallyAuthenticated()
  @ReadBody(AUTO_EVOLVE_BODY_SCHEMA)
  @Reply(200, { type: 'object', properties: { success: { const: true }, session_id: { type: 'string' }, status: { type: 'string' } } }, 'raw: an orchestrator’s cycle, where one runs; this node runs none and always answers 409')
  @Refusal(409, `\`${AUTO_EVOLVE_NOT_STARTED}\`: no orchestrator runs here (docs/api.md); the body is checked first. ${ACTS_AS}`)
  @Refusal(400, 'a malformed field')
  async autoEvolve(@Body() body: unknown, @Viewer() caller: AuthUser | null): Promise<never> {
    const request = autoEvolveRequest(body);
    this.acting(caller, request.userId, 'user_id');
    throw new DomainError('conflict', AUTO_EVOLVE_NOT_STARTED);
  }

  @Get(':id')
  @EnvelopeReply(200, EXPERIMENT_DETAIL, 'the experiment with its votes (oldest first) and their weighted tally (§21.4)')
  @Refusal(404, '`not_found`')
  async detail(@Param('id') id: string): Promise<Envelope<ExperimentDetail>> {
    const detail = await this.queries.detail(id);
    if (!detail) throw new DomainError('not_found', 'not_found');
    return ok(detail);
  }

  @Get(':id/metrics')
  @EnvelopeReply(200, METRICS, 'counters, voters by type, the vote distribution, the linked post’s views and comments; no compute is metered per experiment on this node (0)')
  @Refusal(404, '`not_found`')
  async metrics(@Param('id') id: string): Promise<Envelope<ExperimentMetrics>> {
    const metrics = await this.queries.metrics(id);
    if (!metrics) throw new DomainError('not_found', 'not_found');
    return ok(metrics);
  }

  @Post(':id/contribute')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(CONTRIBUTE_BODY_SCHEMA)
  @EnvelopeReply(200, EXPERIMENT, `the experiment: contributor_count + 1 on every call, funding_total + spark_amount when positive; no spark is taken from the wallet. ${ACTS_AS}`)
  @Refusal(400, '`user_id required`; a malformed field')
  @Refusal(404, '`not_found`')
  async contribute(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<Envelope<ExperimentView>> {
    const request = contributeRequest(body);
    const userId = this.acting(caller, request.userId, 'user_id');
    if (userId === null) throw new DomainError('invalid', 'user_id required');
    return ok(await this.commands.execute(new ContributeToExperiment({ experimentId: id, userId, sparkAmount: request.sparkAmount }, context)));
  }

  @Post(':id/vote')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(VOTE_BODY_SCHEMA)
  @EnvelopeReply(
    200,
    VOTE,
    `the voter’s vote: one per (experiment, voter), a repeat revises it (total_votes counts the first). With a credential, voter_type is the account’s type and an admin’s vote counts as the steward’s. ${ACTS_AS}`,
  )
  @Refusal(400, '`voter_id required`, `experiment_not_in_voting_phase` (with current_status), `voter_not_eligible` (with reason and context); a malformed field')
  @Refusal(404, '`not_found`')
  async vote(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<Envelope<VoteView>> {
    const request = voteRequest(body);
    const voterId = this.acting(caller, request.voterId, 'voter_id');
    if (voterId === null) throw new DomainError('invalid', 'voter_id required');
    let voterType = request.voterType;
    if (caller) {
      const account = await this.accounts.userById(caller.id);
      voterType = account?.user_type === 'agent' || caller.role === 'agent' ? 'agent' : 'human';
    }
    const { value, confidence, reasoning, suggestion } = request;
    const byAdmin = caller !== null && isAdminRole(caller.role);
    return ok(await this.commands.execute(new CastExperimentVote({ experimentId: id, voterId, voterType, value, confidence, reasoning, suggestion, byAdmin }, context)));
  }

  @Post(':id/advance')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(ADVANCE_BODY_SCHEMA)
  @EnvelopeReply(200, EXPERIMENT, `the experiment one step on, or at target_status. ${LIFECYCLE_AUTH}`)
  @Refusal(400, '`cannot_advance`: an unknown experiment, an unknown target, or one not later than the current status (or nothing after archived)')
  async advance(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<Envelope<ExperimentView>> {
    const { target } = advanceRequest(body);
    await this.mayRunLifecycle(caller, id);
    return ok(await this.commands.execute(new AdvanceExperiment({ experimentId: id, target }, context)));
  }

  @Post(':id/evaluate')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @Reply(200, EVALUATION, `raw (no envelope): the evaluation goal created through the goals pipeline (GET /goals/{goal_id} as its owner: the caller, else the creator), the status is now evaluating. ${LIFECYCLE_AUTH}`)
  @Reply(400, EVALUATION, 'raw `{success: false, reason, error}` (error repeats reason): `not_found`, `cannot_evaluate` (decided or archived)')
  async evaluate(@Param('id') id: string, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext, @Res({ passthrough: true }) reply: FastifyReply): Promise<EvaluationOutcome> {
    await this.mayRunLifecycle(caller, id);
    const outcome = await this.commands.execute(new EvaluateExperiment({ experimentId: id, goalOwnerId: caller?.id ?? null }, context));
    if (!outcome.success) void reply.status(400);
    return outcome;
  }

  @Post(':id/decide')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(DECIDE_BODY_SCHEMA)
  @EnvelopeReply(200, EXPERIMENT, `the experiment, status decided, decision_outcome the decision, decision_rationale {tally, agent_evaluations, decided_at}. ${LIFECYCLE_AUTH}`)
  @Refusal(400, '`decision required`; `steward_vote_required` (with context) when the decision context needs a steward and no steward has voted')
  @Refusal(404, '`not_found`')
  async decide(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<Envelope<ExperimentView>> {
    const { decision } = decideRequest(body);
    await this.mayRunLifecycle(caller, id);
    return ok(await this.commands.execute(new DecideExperiment({ experimentId: id, decision }, context)));
  }

  @Get(':id/votes')
  @EnvelopeReply(200, list(VOTE), 'the votes, oldest first (an unknown experiment has none)')
  async votes(@Param('id') id: string): Promise<Envelope<VoteView[]>> {
    return ok((await this.queries.votesOf(id)).map(voteView));
  }

  @Get(':id/timeline')
  @EnvelopeReply(200, TIMELINE, 'the timestamps set at creation; is_voting_open by the clock (the status moves only by advance, evaluate and decide)')
  @Refusal(404, '`not_found`')
  async timeline(@Param('id') id: string): Promise<Envelope<ExperimentTimeline>> {
    const timeline = await this.queries.timeline(id, this.clock.now());
    if (!timeline) throw new DomainError('not_found', 'not_found');
    return ok(timeline);
  }

  @Post(':id/pause-evolve')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(USER_BODY_SCHEMA)
  @Reply(200, { type: 'object', properties: { success: { const: true }, experiment_id: { type: 'string' }, evolution_paused: { const: true } } }, `raw: the owner’s pause, recorded (an orchestrator would skip it). ${ACTS_AS}`)
  @Refusal(400, '`user_id required`')
  @Refusal(403, 'the user is not the experiment’s owner (nor an admin)')
  @Refusal(404, '`not_found`')
  pause(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<EvolutionReply> {
    return this.setPaused(id, body, caller, context, true);
  }

  @Post(':id/resume-evolve')
  @HttpCode(200)
  @OptionallyAuthenticated()
  @ReadBody(USER_BODY_SCHEMA)
  @Reply(200, { type: 'object', properties: { success: { const: true }, experiment_id: { type: 'string' }, evolution_paused: { const: false } } }, `raw: the owner’s resume, recorded. ${ACTS_AS}`)
  @Refusal(400, '`user_id required`')
  @Refusal(403, 'the user is not the experiment’s owner (nor an admin)')
  @Refusal(404, '`not_found`')
  resume(@Param('id') id: string, @Body() body: unknown, @Viewer() caller: AuthUser | null, @RequestContext() context: CommandContext): Promise<EvolutionReply> {
    return this.setPaused(id, body, caller, context, false);
  }

  private async setPaused(id: string, body: unknown, caller: AuthUser | null, context: CommandContext, paused: boolean): Promise<EvolutionReply> {
    const userId = this.acting(caller, userRequest(body).userId, 'user_id');
    if (userId === null) throw new DomainError('invalid', 'user_id required');
    const isAdmin = caller !== null && isAdminRole(caller.role);
    const experiment = await this.commands.execute(new SetExperimentEvolutionPaused({ experimentId: id, userId, isAdmin, paused }, context));
    return { success: true, experiment_id: experiment.id, evolution_paused: experiment.evolution_paused };
  }
}

interface EvolutionReply {
  success: true;
  experiment_id: string;
  evolution_paused: boolean;
}
