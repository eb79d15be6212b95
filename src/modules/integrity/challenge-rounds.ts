/**
 * Integrity challenges this node puts to another (social-routes §20,
 * aggregates/integrity/integrity-challenge.ts): issued on the challenge's
 * stream, then, when this node knows the target's URL (its federation
 * registration, its peer announcement, its fleet record), sent there at once
 * as a node-signed POST /integrity/challenge through the address guard, and
 * the signed answer evaluated: from the target, the nonce echoed, a valid
 * signature of the target's registered key. A target that cannot be reached
 * leaves the challenge pending (unanswered for an hour, an audit finding).
 * An answer can also come later, from the target, at POST
 * /integrity/challenge-response: both paths evaluate here.
 */
import { Inject, Injectable } from '@nestjs/common';
import { integrityChallengeDecider, integrityChallengeStreamId } from '../../aggregates/integrity/integrity-challenge';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { NodeKey, verifySignature } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { postSignedToPeer } from '../common/signed-peer-request';
import type { ChallengeDelivery, ChallengeInput, ChallengeRecord } from './integrity.commands';
import { IntegrityOversightQueries } from './integrity-oversight.queries';
import { IntegrityQueries } from './integrity.queries';
import { NODE_KEY_DIRECTORY } from './node-signature.guard';

export const CHALLENGE_PATH = '/api/social/integrity/challenge';
const MAX_ANSWER_BYTES = 64 * 1024;

export interface ChallengeRound {
  record: ChallengeRecord;
  delivery: ChallengeDelivery;
  /** the target's signed response when it answered */
  response: Record<string, unknown> | null;
}

@Injectable()
export class ChallengeRounds {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    private readonly key: NodeKey,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly oversight: IntegrityOversightQueries,
    private readonly identity: IntegrityQueries,
  ) {}

  async challenge(input: ChallengeInput, context: CommandContext): Promise<ChallengeRound> {
    const challengeId = randomHex(16);
    const { events } = await this.executor.execute(
      integrityChallengeDecider,
      integrityChallengeStreamId(challengeId),
      { kind: 'issue', challengeId, challengerNodeId: this.config.nodeId, targetNodeId: input.targetNodeId, challengeType: input.challengeType, nonce: input.nonce ?? randomHex(32), issuedBy: input.issuedBy },
      context,
      { newStream: true },
    );
    if (!events.some((e) => e.type === 'IntegrityChallengeIssued')) throw new Error('expected IntegrityChallengeIssued');
    const record = await this.recordOf(challengeId);
    const url = input.targetNodeId === this.config.nodeId ? null : await this.oversight.nodeUrl(input.targetNodeId);
    if (url === null) return { record, delivery: { attempted: false, delivered: false, error: null }, response: null };
    let answer: { response: Record<string, unknown>; signature: string };
    try {
      answer = readAnswer(
        await postSignedToPeer(this.key, this.config.nodeId, url, CHALLENGE_PATH, { type: record.challenge_type, nonce: record.challenge_nonce, ...(input.adId ? { ad_id: input.adId } : {}) }, {
          timeoutMs: this.config.federation.sync.timeoutMs,
          allowPrivate: this.config.federation.allowPrivatePeers,
          maxBytes: MAX_ANSWER_BYTES,
        }),
      );
    } catch (error) {
      return { record, delivery: { attempted: true, delivered: false, error: error instanceof Error ? error.message : String(error) }, response: null };
    }
    await this.evaluate({ challengeId, respondingNodeId: input.targetNodeId, ...answer }, context);
    return {
      record: await this.recordOf(challengeId),
      delivery: { attempted: true, delivered: true, error: null },
      response: answer.response,
    };
  }

  /** The challenge as its read model holds it (read-your-writes: the command that changed it waited for it). */
  private async recordOf(challengeId: string): Promise<ChallengeRecord> {
    const record = await this.identity.challenge(challengeId);
    if (!record) throw new Error(`challenge ${challengeId} is not in its read model`);
    return record;
  }

  /** Evaluates a signed response to one of this node's challenges; an unknown or already processed challenge is `passed: false` (§20), not an error. */
  async evaluate(
    payload: { challengeId: string; respondingNodeId: string; response: Record<string, unknown>; signature: string },
    context: CommandContext,
  ): Promise<{ passed: boolean; details: string }> {
    const key = await this.keys.publicKeyOf(payload.respondingNodeId);
    const signatureValid = key !== null && verifySignature(key, canonicalJson(payload.response), payload.signature);
    try {
      const { events } = await this.executor.execute(
        integrityChallengeDecider,
        integrityChallengeStreamId(payload.challengeId),
        { kind: 'evaluate', respondingNodeId: payload.respondingNodeId, response: payload.response, signatureValid },
        context,
      );
      const evaluated = events.find((e) => e.type === 'IntegrityChallengeEvaluated');
      if (!evaluated || evaluated.type !== 'IntegrityChallengeEvaluated') throw new Error('expected IntegrityChallengeEvaluated');
      return { passed: evaluated.data.passed, details: evaluated.data.details };
    } catch (error) {
      if (error instanceof DomainError && (error.kind === 'not_found' || error.kind === 'conflict')) return { passed: false, details: error.message };
      throw error;
    }
  }
}

/** The target's answer `{success, response, signature}`; a rejection saying what is wrong with it. */
function readAnswer(text: string): { response: Record<string, unknown>; signature: string } {
  let parsed: { response?: unknown; signature?: unknown };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    throw new Error('the node did not answer with JSON');
  }
  const response = parsed?.response;
  if (!response || typeof response !== 'object' || Array.isArray(response) || typeof parsed.signature !== 'string') throw new Error('the node did not answer with a signed response');
  return { response: response as Record<string, unknown>, signature: parsed.signature };
}
