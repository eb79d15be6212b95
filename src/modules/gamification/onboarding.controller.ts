/** Onboarding (social-routes §15): eight steps, each rewarded once, 50 spark for finishing them all. */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { onboardingStep, UNKNOWN_STEP } from '../../aggregates/gamification/onboarding';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, obj, ReadBody, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { CompleteOnboardingStep, DismissOnboarding } from './gamification.commands';
import { GamificationQueries, type OnboardingProgress, type OnboardingStepOutcome, type StepSuggestion } from './gamification.queries';
import { ONBOARDING_PROGRESS, STEP_OUTCOME, STEP_SUGGESTION } from './gamification.replies';
import { STEP_BODY_SCHEMA, stepRequest } from './gamification.requests';

@Controller(socialPaths('onboarding'))
@Authenticated()
export class OnboardingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: GamificationQueries,
  ) {}

  @Get('progress')
  @EnvelopeReply(200, ONBOARDING_PROGRESS, 'the eight steps in order, which are done, and the next one')
  async progress(@CurrentUser() caller: AuthUser): Promise<Envelope<OnboardingProgress>> {
    return ok(await this.queries.progress(caller.id));
  }

  @Post('complete-step')
  @HttpCode(200)
  @ReadBody(STEP_BODY_SCHEMA)
  @EnvelopeReply(200, STEP_OUTCOME, 'the step done and its rewards; a repeat answers `{already_completed: true, step}`; an unknown step `{error: "Unknown step"}`')
  @Refusal(400, '`step is required`')
  async completeStep(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<OnboardingStepOutcome | { error: string }>> {
    const step = stepRequest(body);
    // the contract answers an unknown step with 200 and an error in the data
    if (!onboardingStep(step)) return ok({ error: UNKNOWN_STEP });
    return ok(await this.commands.execute(new CompleteOnboardingStep({ userId: caller.id, step }, context)));
  }

  @Post('dismiss')
  @HttpCode(200)
  @EnvelopeReply(200, { const: true }, 'the tutorial stays dismissed')
  async dismiss(@CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<true>> {
    return ok(await this.commands.execute(new DismissOnboarding({ userId: caller.id }, context)));
  }

  @Get('suggestion')
  @Reply(200, obj({ success: { const: true }, data: STEP_SUGGESTION }, ['data']), 'the next step; no data once all are done or the tutorial was dismissed')
  async suggestion(@CurrentUser() caller: AuthUser): Promise<Envelope<StepSuggestion> | { success: true }> {
    const next = await this.queries.suggestion(caller.id);
    return next ? ok(next) : { success: true };
  }
}
