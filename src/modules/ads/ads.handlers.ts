import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AD_NOT_FOUND, adUnitDecider, type AdImpressionRecorded, adUnitStreamId, BUDGET_EXHAUSTED } from '../../aggregates/ads/ad-unit';
import { walletDecider, walletStreamId } from '../../aggregates/contest/wallet';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import type { NodeKeyDirectory, NonceStore } from '../../infrastructure/node-identity/signed-request';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { NODE_KEY_DIRECTORY, NONCE_STORE } from '../integrity/node-signature.guard';
import { witnessCounts } from './ad-witness';
import { ChargeAdImpression, CompleteAd, CreateAd, ReleaseAdBudget, ShareAdRevenue } from './ads.commands';
import { adView, AdsQueries, type AdUnitView, type ImpressionView } from './ads.queries';

/** Spends on one wallet, and charges of one ad, may come all at once: each conflict across processes is decided again. */
const RETRIES = 50;
const AD_ID = /^[A-Za-z0-9_-]{1,64}$/;

const impressionView = (d: AdImpressionRecorded['data']): ImpressionView => ({
  id: d.impression_id,
  ad_id: d.ad_id,
  placement_id: d.placement_id,
  node_id: d.node_id,
  region_id: d.region_id,
  user_id: d.user_id,
  impression_type: d.impression_type,
  created_at: d.created_at,
  witness_node_id: d.witness_node_id,
  witness_signature: d.witness_signature,
  sealed_hash: d.sealed_hash,
  sealed_at: d.created_at,
  witnessed: d.witnessed,
});

/**
 * Holds the whole budget on the advertiser's wallet stream (where concurrent
 * holds and spends serialize, so they never overdraw), then creates the ad
 * unit on its new stream; if that fails, the hold is released again.
 */
@CommandHandler(CreateAd)
export class CreateAdHandler implements ICommandHandler<CreateAd> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { advertiserId, ad }, context }: CreateAd): Promise<AdUnitView> {
    const adId = randomHex(12);
    const wallet = walletStreamId(advertiserId);
    await this.executor.execute(walletDecider, wallet, { kind: 'hold', userId: advertiserId, holdId: adId, purpose: 'ad_budget', amount: ad.budget_spark }, context, {
      maxRetries: RETRIES,
    });
    try {
      const { events } = await this.executor.execute(adUnitDecider, adUnitStreamId(adId), { kind: 'create', ad_id: adId, advertiser_id: advertiserId, ...ad }, context, { newStream: true });
      const created = events.find((e) => e.type === 'AdUnitCreated');
      if (!created) throw new Error('creating an ad records AdUnitCreated');
      const { ad_id: id, ...fields } = created.data;
      return adView({ id, ...fields, spent_spark: 0, impression_count: 0, click_count: 0, status: 'active' });
    } catch (error) {
      await this.executor.execute(walletDecider, wallet, { kind: 'release', userId: advertiserId, holdId: adId, amount: ad.budget_spark }, context, { maxRetries: RETRIES });
      throw error;
    }
  }
}

/**
 * Resolves the serving node's operator and verifies the witness's
 * co-signature, claiming its nonce (I/O the decider does not do), then lets
 * the ad unit decide the charge.
 */
@CommandHandler(ChargeAdImpression)
export class ChargeAdImpressionHandler implements ICommandHandler<ChargeAdImpression> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AdsQueries,
    private readonly clock: Clock,
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    @Inject(NONCE_STORE) private readonly nonces: NonceStore,
  ) {}

  async execute({ payload, context }: ChargeAdImpression): Promise<ImpressionView> {
    if (!AD_ID.test(payload.adId)) throw new DomainError('not_found', AD_NOT_FOUND);
    const operatorId = payload.nodeId ? await this.queries.operatorOf(payload.nodeId) : null;
    const verified = await witnessCounts(payload, { keys: this.keys, nonces: this.nonces, isBanned: (nodeId) => this.queries.isBanned(nodeId), now: this.clock.now().getTime() });
    const { events } = await this.executor.execute(
      adUnitDecider,
      adUnitStreamId(payload.adId),
      {
        kind: 'charge',
        impressionId: randomHex(12),
        type: payload.type,
        userId: payload.userId,
        placementId: payload.placementId,
        nodeId: payload.nodeId,
        regionId: payload.regionId,
        witnessNodeId: payload.witness?.witness.witness_node_id ?? null,
        witnessSignature: payload.witness?.witness_signature ?? null,
        witnessVerified: verified,
        operatorId,
      },
      context,
      { maxRetries: RETRIES },
    );
    const recorded = events.find((e) => e.type === 'AdImpressionRecorded');
    if (recorded) return impressionView(recorded.data);
    if (events.some((e) => e.type === 'AdUnitExhausted')) throw new DomainError('rate_limited', BUDGET_EXHAUSTED);
    throw new Error('a charge records an impression or exhausts the ad');
  }
}

/** Completes the ad, then refunds its unspent budget (the AdBudgetSaga releases it too, should this process stop in between). */
@CommandHandler(CompleteAd)
export class CompleteAdHandler implements ICommandHandler<CompleteAd> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CompleteAd): Promise<{ deleted: true; spark_refunded: number }> {
    if (!AD_ID.test(payload.adId)) throw new DomainError('not_found', AD_NOT_FOUND);
    const { events } = await this.executor.execute(adUnitDecider, adUnitStreamId(payload.adId), { kind: 'complete', by: payload.by, asAdmin: payload.asAdmin }, context, {
      maxRetries: RETRIES,
    });
    const completed = events.find((e) => e.type === 'AdUnitCompleted');
    if (!completed) throw new Error('completing an ad records AdUnitCompleted');
    const d = completed.data;
    await this.executor.execute(walletDecider, walletStreamId(d.advertiser_id), { kind: 'release', userId: d.advertiser_id, holdId: d.ad_id, amount: d.refunded_spark }, context, {
      maxRetries: RETRIES,
    });
    return { deleted: true, spark_refunded: d.refunded_spark };
  }
}

@CommandHandler(ReleaseAdBudget)
export class ReleaseAdBudgetHandler implements ICommandHandler<ReleaseAdBudget> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ReleaseAdBudget): Promise<void> {
    await this.executor.execute(walletDecider, walletStreamId(payload.userId), { kind: 'release', ...payload }, context, { maxRetries: RETRIES, readYourWrites: false });
  }
}

@CommandHandler(ShareAdRevenue)
export class ShareAdRevenueHandler implements ICommandHandler<ShareAdRevenue> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ShareAdRevenue): Promise<void> {
    await this.executor.execute(walletDecider, walletStreamId(payload.userId), { kind: 'shareAdRevenue', ...payload }, context, { maxRetries: RETRIES, readYourWrites: false });
  }
}

export const ADS_COMMAND_HANDLERS = [CreateAdHandler, ChargeAdImpressionHandler, CompleteAdHandler, ReleaseAdBudgetHandler, ShareAdRevenueHandler];
