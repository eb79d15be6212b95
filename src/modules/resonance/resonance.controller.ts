/**
 * The wallet economy (social-routes §15, the first ten gamification routes)
 * under /api/social/resonance and /social/resonance: wallets, the ledger, the
 * leaderboard, boosts, levels, the daily streak. Writes go to the user's
 * wallet stream; reads come from the `resonanceWallets` read models.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { LEVEL_TITLES, levelOf } from '../../aggregates/contest/levels';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { emptyWallet, type WalletRecord } from '../../projections/resonance/wallets.projection';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok, paged, type PagedEnvelope } from '../common/envelope';
import { EnvelopeReply, list, oneOf, QueryParam, ReadBody, Refusal, Reply, str } from '../common/openapi';
import { pageQuery, pageQuerySchemas } from '../common/paging';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { WritesOnRead } from '../common/writes-on-read';
import { type BoostView, BuyBoost, type CheckinOutcome, DailyCheckin, OpenWallet } from './resonance.commands';
import { BOOST, BREAKDOWN, CHECKIN, LEADERBOARD_PAGE, LEVEL_INFO, STREAK, TRANSACTION, WALLET } from './resonance.replies';
import { LEADERBOARD_CURRENCIES, type LeaderboardRow, ResonanceQueries, type TransactionView, type WalletBreakdown } from './resonance.queries';
import { BOOST_BODY_SCHEMA, boostRequest, leaderboardCurrency, regionQuery, transactionCurrency } from './resonance.requests';
import { CURRENCIES } from '../../aggregates/contest/wallet';

const LIST_PAGE = { defaultLimit: 50, cap: 100 };
export const WALLET_NOT_FOUND = 'Wallet not found';
export const USER_NOT_FOUND = 'User not found';

@Controller(socialPaths('resonance'))
export class ResonanceController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ResonanceQueries,
    private readonly clock: Clock,
  ) {}

  /** The caller's wallet as the read model holds it, zeros until its first event is projected. */
  private async own(userId: string): Promise<WalletRecord> {
    return (await this.queries.wallet(userId)) ?? emptyWallet(userId);
  }

  @Get('wallet')
  @WritesOnRead()
  @Authenticated()
  @EnvelopeReply(200, WALLET, "the caller's wallet, created on first read")
  async wallet(@CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<WalletRecord>> {
    await this.commands.execute(new OpenWallet({ userId: caller.id }, context));
    return ok(await this.own(caller.id));
  }

  @Get('wallet/:user_id')
  @EnvelopeReply(200, WALLET)
  @Refusal(404, '`Wallet not found`')
  async walletOf(@Param('user_id') userId: string): Promise<Envelope<WalletRecord>> {
    const wallet = await this.queries.wallet(userId);
    if (!wallet) throw new DomainError('not_found', WALLET_NOT_FOUND);
    return ok(wallet);
  }

  @Get('transactions')
  @Authenticated()
  @EnvelopeReply(200, list(TRANSACTION), "the caller's ledger, newest first (no meta)")
  @QueryParam('currency', oneOf(CURRENCIES))
  @QueryParam('limit', pageQuerySchemas(LIST_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(LIST_PAGE).offset)
  @Refusal(400, 'an unknown currency, a limit or offset that is not a whole number')
  async transactions(@Query() query: Record<string, unknown>, @CurrentUser() caller: AuthUser): Promise<Envelope<TransactionView[]>> {
    const currency = transactionCurrency(query.currency);
    return ok(await this.queries.transactions(caller.id, currency, pageQuery(query, LIST_PAGE)));
  }

  @Get('leaderboard')
  @Reply(200, LEADERBOARD_PAGE, 'wallets ranked by the currency (spark: by lifetime spark; level: by XP)')
  @QueryParam('currency', oneOf(LEADERBOARD_CURRENCIES, { default: 'pulse' }))
  @QueryParam('region', str())
  @QueryParam('limit', pageQuerySchemas(LIST_PAGE).limit)
  @QueryParam('offset', pageQuerySchemas(LIST_PAGE).offset)
  @Refusal(400, 'an unknown currency, a limit or offset that is not a whole number')
  async leaderboard(@Query() query: Record<string, unknown>): Promise<PagedEnvelope<LeaderboardRow>> {
    const currency = leaderboardCurrency(query.currency);
    const region = regionQuery(query.region);
    const page = pageQuery(query, LIST_PAGE);
    const { rows, total } = await this.queries.leaderboard(currency, region, page);
    return paged(rows, total, page);
  }

  @Post('boost')
  @HttpCode(200)
  @Authenticated()
  @ReadBody(BOOST_BODY_SCHEMA)
  @EnvelopeReply(200, BOOST, 'spark spent; the multiplier min(1 + 0.01 × spark, 2) lasts `spark` hours')
  @Refusal(400, '`Insufficient Spark (have N)`, `target_type and target_id are required`, a spark_amount that is not an integer from 1 to 10000')
  async boost(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<BoostView>> {
    return ok(await this.commands.execute(new BuyBoost({ userId: caller.id, ...boostRequest(body) }, context)));
  }

  @Get('boosts/:type/:id')
  @EnvelopeReply(200, list(BOOST), 'the unexpired boosts of the target, newest first')
  async boosts(@Param('type') type: string, @Param('id') id: string): Promise<Envelope<BoostView[]>> {
    return ok(await this.queries.activeBoosts(type, id, this.clock.now()));
  }

  @Get('level-info')
  @Authenticated()
  @EnvelopeReply(200, LEVEL_INFO)
  async levelInfo(@CurrentUser() caller: AuthUser): Promise<Envelope<ReturnType<typeof levelOf> & { all_titles: typeof LEVEL_TITLES }>> {
    const wallet = await this.own(caller.id);
    return ok({ ...levelOf(wallet.xp), all_titles: LEVEL_TITLES });
  }

  @Get('streak')
  @Authenticated()
  @EnvelopeReply(200, STREAK)
  async streak(@CurrentUser() caller: AuthUser): Promise<Envelope<{ streak_days: number; streak_best: number; last_active_date: string | null }>> {
    const { streak_days, streak_best, last_active_date } = await this.own(caller.id);
    return ok({ streak_days, streak_best, last_active_date });
  }

  @Post('daily-checkin')
  @HttpCode(200)
  @Authenticated()
  @EnvelopeReply(200, CHECKIN, 'once per UTC day: spark = streak day, XP = 5 × streak day')
  async checkin(@CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<CheckinOutcome>> {
    return ok(await this.commands.execute(new DailyCheckin({ userId: caller.id }, context)));
  }

  @Get('breakdown/:user_id')
  @EnvelopeReply(200, BREAKDOWN)
  @Refusal(404, '`User not found` (the user has no wallet)')
  async breakdown(@Param('user_id') userId: string): Promise<Envelope<WalletBreakdown>> {
    const breakdown = await this.queries.breakdown(userId);
    if (!breakdown) throw new DomainError('not_found', USER_NOT_FOUND);
    return ok(breakdown);
  }
}
