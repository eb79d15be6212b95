/**
 * POST /integrity/witness-impression's work: judge the request against the
 * requester's registered key and standing (witness.ts), claim its nonce
 * once, co-sign with this node's key. Nothing is recorded in the log: a
 * witness is a signature, the nonce store keeps replays out.
 */
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory, NonceStore } from '../../infrastructure/node-identity/signed-request';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import { NODE_KEY_DIRECTORY, NONCE_STORE } from './node-signature.guard';
import { coSign, type ImpressionWitnessRequest, judgeWitnessRequest, WITNESS_MAX_AGE_MS, WITNESS_REASONS, type WitnessCoSignature } from './witness';

export type WitnessReply = ({ success: true; witnessed: true } & WitnessCoSignature) | { success: true; witnessed: false; reason: string };

@Injectable()
export class ImpressionWitness {
  constructor(
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    @Inject(NONCE_STORE) private readonly nonces: NonceStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly key: NodeKey,
    private readonly clock: Clock,
  ) {}

  async witness(request: ImpressionWitnessRequest): Promise<WitnessReply> {
    const [registeredKey, standing] = await Promise.all([
      this.keys.publicKeyOf(request.node_id),
      this.readStore.collection<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: request.node_id }),
    ]);
    const now = this.clock.now();
    const judgement = judgeWitnessRequest(request, { registeredKey, banned: standing?.banned === true, now: now.getTime() });
    if (!judgement.ok) return { success: true, witnessed: false, reason: judgement.reason };
    // one co-signature per nonce of a node; remembered as long as the request could pass the age check
    if (!(await this.nonces.claim(request.node_id, `witness:${request.nonce}`, now.getTime() + 2 * WITNESS_MAX_AGE_MS))) {
      return { success: true, witnessed: false, reason: WITNESS_REASONS.replayed };
    }
    return { success: true, witnessed: true, ...coSign(this.key, this.config.nodeId, request, now) };
  }
}
