/**
 * The node's identity and integrity answers (social-routes §20, raw
 * replies): its public key and the code hash of its build (open, the hash
 * signed), and challenges from other nodes (signed requests only), answered
 * with a signed response.
 */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Reply, Refusal } from '../common/openapi';
import { socialPaths } from '../common/social-paths';
import { CHALLENGE_ANSWER, CODE_HASH, PUBLIC_KEY } from './integrity.replies';
import { ChallengeRequest } from './integrity.requests';
import { IntegrityQueries, type SignedChallengeAnswer, type SignedCodeHash } from './integrity.queries';
import { NodeSigned } from './node-signature.guard';

@Controller(socialPaths('integrity'))
export class IntegrityController {
  constructor(private readonly queries: IntegrityQueries) {}

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
  @Refusal(400, 'a challenge type this node cannot answer yet (`guardrail_verify`, `impression_audit`, `agent_count_verify`)')
  async challenge(@Body() body: ChallengeRequest): Promise<SignedChallengeAnswer> {
    if (body.type !== 'code_hash_check' && body.type !== 'stats_probe') throw new DomainError('invalid', `Unsupported challenge type: ${body.type}`);
    return this.queries.answerChallenge(body.type, body.nonce);
  }
}
