/**
 * The referral routes (social-routes §14), under /api/social and /social:
 * the caller's code, using a code, the caller's referral stats, and share
 * links carrying the caller's code.
 */
import { Body, Controller, Get, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { envelope, EnvelopeReply, obj, ReadBody, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { WritesOnRead } from '../common/writes-on-read';
import { IssueReferralCode, UseReferralCode } from './referrals.commands';
import { type ReferralCodeView, ReferralsQueries, type ReferralStats, type ReferralView } from './referrals.queries';
import { REFERRAL, REFERRAL_CODE, REFERRAL_STATS, SHARE_LINK } from './referrals.replies';
import { REFERRAL_USE_BODY_SCHEMA, referralUseRequest, SHARE_LINK_BODY_SCHEMA, shareLink, shareLinkRequest } from './referrals.requests';

/** `{success: true}` without data: how a refused referral answers (§14). */
type NoData = { success: true };

@Controller(socialPaths())
@Authenticated()
export class ReferralsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ReferralsQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('referral/code')
  @WritesOnRead()
  @EnvelopeReply(200, REFERRAL_CODE, "the caller's code: created on the first call (8 characters A-Z 0-9, 100 uses), the same one afterwards")
  async code(@CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ReferralCodeView>> {
    return ok(await this.commands.execute(new IssueReferralCode({ userId: caller.id }, context)));
  }

  @Post('referral/use')
  @HttpCode(200)
  @ReadBody(REFERRAL_USE_BODY_SCHEMA)
  @Reply(
    200,
    { anyOf: [envelope(REFERRAL), obj({ success: { const: true } })] },
    'the new pending referral; `{success: true}` without data for an unknown, inactive or used-up code, your own code, or when you were already referred',
  )
  @Refusal(400, '`code is required`')
  async use(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<ReferralView> | NoData> {
    const { code } = referralUseRequest(body);
    const referral = await this.commands.execute(new UseReferralCode({ referredId: caller.id, code }, context));
    return referral ? ok(referral) : { success: true };
  }

  @Get('referral/stats')
  @EnvelopeReply(200, REFERRAL_STATS, "the caller's code (null before GET /referral/code) and the referrals made with it")
  async stats(@CurrentUser() caller: AuthUser): Promise<Envelope<ReferralStats>> {
    return ok(await this.queries.stats(caller.id));
  }

  @Post('share/generate-link')
  @HttpCode(200)
  @ReadBody(SHARE_LINK_BODY_SCHEMA)
  @EnvelopeReply(200, SHARE_LINK, "`<base_url>/<target_type>/<target_id>?ref=<code>` with the caller's code (created if need be); base_url defaults to SHARE_BASE_URL")
  @Refusal(400, 'a missing or malformed target_type or target_id, or a base_url that is not an http(s) URL')
  async shareLink(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ link: string; referral_code: string }>> {
    const { targetType, targetId, baseUrl } = shareLinkRequest(body);
    const { code } = await this.commands.execute(new IssueReferralCode({ userId: caller.id }, context));
    return ok({ link: shareLink(baseUrl ?? this.config.referrals.shareBaseUrl, targetType, targetId, code), referral_code: code });
  }
}
