/**
 * Handlers of the integrity context: challenges this node issues and the
 * evaluation of the signed responses (aggregates/integrity/integrity-challenge.ts).
 * The response's signature is checked here, with the responding node's
 * registered key over the canonical JSON of the response; the decider
 * decides what passes.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { integrityChallengeDecider, integrityChallengeStreamId } from '../../aggregates/integrity/integrity-challenge';
import { DomainError } from '../../aggregates/shared/domain-error';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { verifySignature } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { type ChallengeRecord, EvaluateChallengeResponse, IssueIntegrityChallenge } from './integrity.commands';
import { NODE_KEY_DIRECTORY } from './node-signature.guard';

@CommandHandler(IssueIntegrityChallenge)
export class IssueIntegrityChallengeHandler implements ICommandHandler<IssueIntegrityChallenge> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: IssueIntegrityChallenge): Promise<ChallengeRecord> {
    const challengeId = randomHex(16);
    const { events } = await this.executor.execute(
      integrityChallengeDecider,
      integrityChallengeStreamId(challengeId),
      { kind: 'issue', ...payload, challengeId, nonce: payload.nonce ?? randomHex(32) },
      context,
      { newStream: true },
    );
    const issued = events.find((e) => e.type === 'IntegrityChallengeIssued');
    if (!issued) throw new Error('expected IntegrityChallengeIssued');
    const d = issued.data;
    return {
      id: d.challenge_id,
      challenger_node_id: d.challenger_node_id,
      target_node_id: d.target_node_id,
      challenge_type: d.challenge_type,
      challenge_nonce: d.challenge_nonce,
      status: 'pending',
      result_details: null,
      created_at: d.issued_at,
      responded_at: null,
      evaluated_at: null,
    };
  }
}

@CommandHandler(EvaluateChallengeResponse)
export class EvaluateChallengeResponseHandler implements ICommandHandler<EvaluateChallengeResponse> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
  ) {}

  async execute({ payload, context }: EvaluateChallengeResponse): Promise<{ passed: boolean; details: string }> {
    const key = await this.keys.publicKeyOf(payload.respondingNodeId);
    const signatureValid = key !== null && verifySignature(key, canonicalJson(payload.response), payload.signature);
    try {
      const { events } = await this.executor.execute(integrityChallengeDecider, integrityChallengeStreamId(payload.challengeId), {
        kind: 'evaluate',
        respondingNodeId: payload.respondingNodeId,
        response: payload.response,
        signatureValid,
      }, context);
      const evaluated = events.find((e) => e.type === 'IntegrityChallengeEvaluated');
      if (!evaluated) throw new Error('expected IntegrityChallengeEvaluated');
      return { passed: evaluated.data.passed, details: evaluated.data.details };
    } catch (error) {
      // social-routes §20: an unknown or already processed challenge is `passed: false`, not an error
      if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'conflict')) return { passed: false, details: error.message };
      throw error;
    }
  }
}
