/**
 * The node's identity and integrity answers (social-routes §20, raw
 * replies): its public key and the code hash of its build (open, the hash
 * signed), and challenges from other nodes (signed requests only), answered
 * with a signed response.
 */
import { Body, Controller, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, type PagedEnvelope, ok, paged } from '../common/envelope';
import { EnvelopeReply, PathParam, QueryParam, Reply, Refusal } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { type ChallengeRecord, ChangeNodeStanding, EvaluateChallengeResponse, IssueIntegrityChallenge } from './integrity.commands';
import { BAN_LIST, CHALLENGE_ANSWER, CHALLENGE_EVALUATION, CHALLENGE_RECORDS_PAGE, CODE_HASH, ISSUED_CHALLENGE, NODE_BAN_RESULT, PUBLIC_KEY } from './integrity.replies';
import { ChallengeRequest, ChallengeResponseRequest, IssueChallengeRequest, MAX_RESPONSE_BYTES, NODE_ID, NodeBanRequest } from './integrity.requests';
import { ChallengeAnswers, type SignedChallengeAnswer } from './challenge-answers';
import { IntegrityQueries, type SignedCodeHash } from './integrity.queries';
import { CallingNode, NodeSigned } from './node-signature.guard';

const CHALLENGES_PAGE = { defaultLimit: 50, cap: 100 };

@Controller(socialPaths('integrity'))
export class IntegrityController {
  constructor(
    private readonly queries: IntegrityQueries,
    private readonly answers: ChallengeAnswers,
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('public-key')
  @Reply(200, PUBLIC_KEY)
  publicKey(): { node_id: string; public_key: string } {
    return this.queries.publicKey();
  }

  @Get('code-hash')
  @Reply(200, CODE_HASH)
  codeHash(): Promise<SignedCodeHash> {
    return this.queries.signedCodeHash();
  }

  @Post('challenge')
  @HttpCode(200)
  @NodeSigned()
  @Reply(200, CHALLENGE_ANSWER)
  @Refusal(400, 'an unknown type, a nonce that is not 8-128 characters')
  challenge(@Body() body: ChallengeRequest): Promise<SignedChallengeAnswer> {
    return this.answers.answer(body.type, body.nonce, body.ad_id ?? null);
  }

  /** An admin challenges another node: recorded, sent to the node's URL when this node knows it (its answer evaluated at once), else answered later at POST /integrity/challenge-response. */
  @Post('challenges')
  @Authenticated('admin')
  @EnvelopeReply(201, ISSUED_CHALLENGE)
  async issue(@CurrentUser() admin: AuthUser, @Body() body: IssueChallengeRequest, @RequestContext() context: CommandContext): Promise<Envelope<ChallengeRecord>> {
    return ok(
      await this.commands.execute(
        new IssueIntegrityChallenge({ targetNodeId: body.target_node_id, challengeType: body.type, nonce: body.nonce, issuedBy: admin.id, adId: body.ad_id }, context),
      ),
    );
  }

  @Get('challenges')
  @Authenticated('admin')
  @Reply(200, CHALLENGE_RECORDS_PAGE)
  @QueryParam('limit', pageQuerySchemas(CHALLENGES_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(CHALLENGES_PAGE).offset)
  async challenges(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<ChallengeRecord>> {
    const page = pageQuery(query, CHALLENGES_PAGE);
    const { items, total } = await this.queries.challenges(page);
    return paged(items, total, page);
  }

  /** The target's signed answer to one of this node's challenges: `passed: false` for an unknown or already processed challenge, a nonce or signature mismatch. */
  @Post('challenge-response')
  @HttpCode(200)
  @NodeSigned()
  @Reply(200, CHALLENGE_EVALUATION)
  @Refusal(400, `a response whose JSON exceeds ${MAX_RESPONSE_BYTES} bytes, or a missing or malformed field`)
  async challengeResponse(@CallingNode() node: string, @Body() body: ChallengeResponseRequest, @RequestContext() context: CommandContext): Promise<{ success: true; passed: boolean; details: string }> {
    if (Buffer.byteLength(canonicalJson(body.response)) > MAX_RESPONSE_BYTES) throw new DomainError('invalid', `response must be at most ${MAX_RESPONSE_BYTES} bytes of JSON`);
    const result = await this.commands.execute(
      new EvaluateChallengeResponse({ challengeId: body.challenge_id, respondingNodeId: node, response: body.response, signature: body.signature }, { ...context, actor: `node:${node}` }),
    );
    return { success: true, ...result };
  }

  /** Bans a node (its signed requests are refused with 403, its fraud score becomes 100) or lifts the ban. */
  @Post('node/:id/ban')
  @HttpCode(200)
  @Authenticated('admin')
  @PathParam('id', { type: 'string', pattern: NODE_ID.source })
  @Reply(200, NODE_BAN_RESULT)
  @Refusal(400, 'a node id that is not 1-128 letters, digits or _ . : -, or a bad action')
  async ban(@Param('id') id: string, @CurrentUser() admin: AuthUser, @Body() body: NodeBanRequest, @RequestContext() context: CommandContext) {
    if (!NODE_ID.test(id)) throw new DomainError('invalid', 'node id must be 1-128 letters, digits or _ . : -');
    const { banned } = await this.commands.execute(new ChangeNodeStanding({ action: body.action, nodeId: id, reason: body.reason ?? '', by: admin.id }, context));
    return { success: true as const, action: body.action, node_id: id, banned };
  }

  /** The nodes this node has banned (public: peers fetch it). */
  @Get('ban-list')
  @Reply(200, BAN_LIST)
  async banList(): Promise<{ banned_node_ids: string[] }> {
    return { banned_node_ids: await this.queries.bannedNodeIds() };
  }
}
