/**
 * This node's answers to the five challenge types of social-routes §20
 * (POST /integrity/challenge): the nonce, a timestamp, what the type asks
 * about and the node's public key, signed with its Ed25519 key over the
 * canonical JSON of the response.
 *
 * - `code_hash_check`: the running build's code hash and version;
 * - `stats_probe`: the log head and the node's tier;
 * - `agent_count_verify`: the agents and visible posts this node holds;
 * - `guardrail_verify`: the guardrail policy's hash as booted and as it is now;
 * - `impression_audit` (with `ad_id`): the ad's views and clicks as this node
 *   counts them, and those it served itself (`known: false` for an ad it
 *   does not know).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ChallengeType } from '../../aggregates/integrity/integrity-challenge';
import { assertNever } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { Clock } from '../../infrastructure/clock';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AD_NODE_COUNTS, AD_UNITS, type AdNodeCountDoc, type AdUnitDoc } from '../../projections/ads/ads.projection';
import { IntegrityOversightQueries } from './integrity-oversight.queries';
import { IntegrityQueries } from './integrity.queries';

export interface SignedChallengeAnswer {
  success: true;
  response: Record<string, unknown>;
  signature: string;
}

@Injectable()
export class ChallengeAnswers {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly key: NodeKey,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly identity: IntegrityQueries,
    private readonly oversight: IntegrityOversightQueries,
  ) {}

  async answer(type: ChallengeType, nonce: string, adId: string | null): Promise<SignedChallengeAnswer> {
    const specific = await this.specific(type, adId);
    const response = { type, nonce, timestamp: this.clock.now().toISOString(), ...specific, node_id: this.config.nodeId, public_key: this.key.publicKeyHex };
    return { success: true, response, signature: this.key.sign(canonicalJson(response)) };
  }

  private async specific(type: ChallengeType, adId: string | null): Promise<Record<string, unknown>> {
    switch (type) {
      case 'code_hash_check':
        return { code_hash: await this.identity.runningCodeHash(), version: this.config.version };
      case 'stats_probe':
        return { head_position: await this.events.headPosition(), node_tier: this.config.nodeTier };
      case 'agent_count_verify': {
        const stats = await this.oversight.peerStats(this.config.nodeId);
        return { agent_count: stats?.agent_count ?? 0, post_count: stats?.post_count ?? 0 };
      }
      case 'guardrail_verify': {
        const { guardrail_hash, guardrail_hash_live, consistent } = this.oversight.guardrailHash();
        return { guardrail_hash, guardrail_hash_live, consistent };
      }
      case 'impression_audit': {
        if (adId === null) return { ad_id: null, known: false };
        const [ad, served] = await Promise.all([
          this.readStore.collection<AdUnitDoc>(AD_UNITS).findOne({ _id: adId }),
          this.readStore.collection<AdNodeCountDoc>(AD_NODE_COUNTS).findOne({ _id: `${adId}|${this.config.nodeId}` }),
        ]);
        if (!ad) return { ad_id: adId, known: false };
        return { ad_id: adId, known: true, impression_count: ad.impression_count, click_count: ad.click_count, served_here: served?.count ?? 0 };
      }
      default:
        return assertNever(type);
    }
  }
}
