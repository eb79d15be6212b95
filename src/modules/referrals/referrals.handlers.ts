import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  CODE_PATTERN,
  isReferralRefusal,
  REFERRAL_CODE_TAKEN,
  referralCodeDecider,
  referralCodeStreamId,
  type ReferralCodeState,
} from '../../aggregates/referrals/referral-code';
import { referralDecider, referralStreamId, type ReferralState } from '../../aggregates/referrals/referral';
import { leftIn } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { ReadYourWrites } from '../../infrastructure/projections/read-your-writes';
import { CommandExecutor } from '../common/command-executor';
import { candidateCode, CODE_ATTEMPTS } from './referral-codes';
import { CheckReferralActivation, IssueReferralCode, UseReferralCode } from './referrals.commands';
import { type ReferralCodeView, ReferralsQueries, type ReferralView } from './referrals.queries';

const codeStateView = (state: ReferralCodeState): ReferralCodeView => {
  if (state.status === 'none') throw new Error('expected an opened referral code');
  return { user_id: state.ownerId, code: state.code, uses: state.uses, max_uses: state.maxUses, is_active: state.status === 'active' };
};

const referralView = (state: ReferralState): ReferralView => {
  if (state.status === 'none') throw new Error('expected a recorded referral');
  return {
    id: state.id,
    referrer_id: state.referrerId,
    referred_id: state.referredId,
    referral_code: state.code,
    status: state.status,
    created_at: state.createdAt,
    activated_at: state.status === 'activated' ? state.activatedAt : null,
  };
};

/** The code the read model knows for the user, else the first of the user's candidate codes nobody else holds (opened now). */
@CommandHandler(IssueReferralCode)
export class IssueReferralCodeHandler implements ICommandHandler<IssueReferralCode> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ReferralsQueries,
  ) {}

  async execute({ payload: { userId }, context }: IssueReferralCode): Promise<ReferralCodeView> {
    const known = await this.queries.codeOf(userId);
    if (known) return known;
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const code = candidateCode(userId, attempt);
      try {
        const { state } = await this.executor.execute(referralCodeDecider, referralCodeStreamId(code), { kind: 'open', code, ownerId: userId }, context);
        return codeStateView(state);
      } catch (error) {
        if (!(error instanceof DomainError && error.message === REFERRAL_CODE_TAKEN)) throw error;
      }
    }
    throw new DomainError('unavailable', 'no free referral code, try again');
  }
}

/**
 * Reserves a use on the code's stream (its uses serialize there), then records
 * the referral on the referred user's stream (one per user); when that
 * refuses, the use is released again. Every refusal is a null.
 */
@CommandHandler(UseReferralCode)
export class UseReferralCodeHandler implements ICommandHandler<UseReferralCode> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ReferralsQueries,
  ) {}

  async execute({ payload: { referredId, code: raw }, context }: UseReferralCode): Promise<ReferralView | null> {
    const code = raw.trim().toUpperCase();
    if (!CODE_PATTERN.test(code)) return null;
    const referred = await this.queries.referredAccount(referredId);
    if (!referred) return null;
    // the common refusal without touching the code: the user was referred before
    const { state: before } = await this.executor.load(referralDecider, referralStreamId(referredId));
    if (before.status !== 'none') return null;
    const codeStream = referralCodeStreamId(code);
    let referrerId: string;
    try {
      const { state } = await this.executor.execute(referralCodeDecider, codeStream, { kind: 'use', referredId }, context, { readYourWrites: false });
      referrerId = leftIn(state, 'active').ownerId;
    } catch (error) {
      if (isReferralRefusal(error)) return null;
      throw error;
    }
    try {
      const { state } = await this.executor.execute(
        referralDecider,
        referralStreamId(referredId),
        {
          kind: 'create',
          referralId: randomUUID(),
          referrerId,
          referredId,
          referredUsername: referred.username,
          referredRegisteredAt: referred.facts.registeredAt,
          code,
        },
        context,
      );
      return referralView(state);
    } catch (error) {
      await this.executor.execute(referralCodeDecider, codeStream, { kind: 'release', referredId }, context);
      if (isReferralRefusal(error)) return null;
      throw error;
    }
  }
}

/**
 * Reads the referred account's facts (once the read models hold the event that
 * asked for the check) and lets the referral decide; nothing for a user
 * without a pending referral.
 */
@CommandHandler(CheckReferralActivation)
export class CheckReferralActivationHandler implements ICommandHandler<CheckReferralActivation> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ReferralsQueries,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ payload: { referredId, after }, context }: CheckReferralActivation): Promise<void> {
    const streamId = referralStreamId(referredId);
    const { state } = await this.executor.load(referralDecider, streamId);
    if (state.status !== 'pending') return;
    if (after) await this.readYourWrites.waitFor(after.position, [after.eventType]);
    const account = await this.queries.referredAccount(referredId);
    if (!account) return;
    await this.executor.execute(referralDecider, streamId, { kind: 'activate', facts: account.facts }, context);
  }
}
