/**
 * The gate of the agent pipeline: what a prompt passes before anything runs
 * (SPEC §1, §8; docs/chat-guards.md), in this order:
 *
 * 1. the rate limit, per caller, before any work (POST /chat only:
 *    ChatRateLimitGuard, 429);
 * 2. validation of the body (chat.requests.ts, 400);
 * 3. the task source: hive or idle work only as the node's compute settings
 *    allow (403);
 * 4. the guardrail: a block is recorded in the conversation without the
 *    prompt's text and answered 403 with the reason;
 * 5. secret redaction: the redacted prompt is the only one stored or sent on;
 * 6. the budget: 402 with the estimate when it does not fit in what is left
 *    of the user's daily budget.
 *
 * Steps 3 to 6 are `pass`; /time_agent runs steps 4 and 5 before it stores a
 * schedule, and the budget when the prompt runs.
 */
import { Inject, Injectable } from '@nestjs/common';
import { conversationStreamId, type PromptReceived } from '../../../aggregates/chat/chat.events';
import { conversationDecider, type ConversationState } from '../../../aggregates/chat/conversation';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { Clock } from '../../../infrastructure/clock';
import { estimateTokens } from '../../../infrastructure/llm/llm.port';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import { ComputeSettingsQueries } from '../../compute/compute-settings.queries';
import { hiveRefusal } from '../../hive/hive-policy';
import type { ChatRequest } from '../chat-pipeline';
import { ChatQueries } from '../chat.queries';
import { checkBudget, estimateCost } from './budget';
import { checkGuardrail } from './guardrail';
import { redactSecrets } from './secret-redaction';

/** A prompt past the gate: redacted, with what was redacted. */
export interface AdmittedPrompt {
  prompt: string;
  redactions: PromptReceived['data']['redactions'];
}

/** The prompt of one message of a conversation. */
export type GuardedPrompt = Pick<ChatRequest, 'userId' | 'promptId' | 'prompt' | 'messageId'>;

@Injectable()
export class ChatGate {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ChatQueries,
    private readonly compute: ComputeSettingsQueries,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Task source, guardrail, redaction and budget, in that order; the prompt to work on. */
  async pass(request: ChatRequest, state: ConversationState, context: CommandContext): Promise<AdmittedPrompt> {
    await this.checkTaskSource(request);
    const admitted = await this.guard(request, context);
    await this.checkBudget(request.userId, admitted.prompt, state);
    return admitted;
  }

  /** The guardrail (403, the block recorded without the prompt's text), then secret redaction. */
  async guard(request: GuardedPrompt, context: CommandContext): Promise<AdmittedPrompt> {
    const verdict = checkGuardrail(request.prompt);
    if (!verdict.allowed) {
      await this.executor.execute(
        conversationDecider,
        conversationStreamId(request.userId, request.promptId),
        { kind: 'block', messageId: request.messageId, userId: request.userId, promptId: request.promptId, category: verdict.category },
        context,
      );
      throw new DomainError('forbidden', verdict.reason, { details: { category: verdict.category } });
    }
    const { text: prompt, redactions } = redactSecrets(request.prompt);
    return { prompt, redactions };
  }

  /**
   * `task_source` hive or idle: work this node does for others on its spare
   * compute, taken only as the node's compute settings allow (the same rule
   * as the hive worker's); own work always runs.
   */
  private async checkTaskSource(request: ChatRequest): Promise<void> {
    if (request.taskSource === 'own') return;
    const refusal = hiveRefusal((await this.compute.merged()).values);
    if (refusal) {
      throw new DomainError('forbidden', `this node does not take ${request.taskSource} work: ${refusal} (compute settings)`);
    }
  }

  /** 402 when the estimated cost does not fit in what is left of today's budget. */
  private async checkBudget(userId: string, prompt: string, state: ConversationState): Promise<void> {
    const price = this.config.llm.pricePer1kTokensUsd;
    if (price === 0) return;
    const contextText = state.context.map((m) => m.content).join('\n');
    const estimateUsd = estimateCost({
      promptTokens: estimateTokens(`${contextText}\n${prompt}`),
      expectedCompletionTokens: this.config.chat.expectedCompletionTokens,
      pricePer1kTokensUsd: price,
    });
    const spentTodayUsd = (await this.queries.spentTodayMicroUsd(userId, this.clock.now())) / 1_000_000;
    const decision = checkBudget({ estimateUsd, spentTodayUsd, dailyBudgetUsd: this.config.chat.dailyBudgetUsd });
    if (!decision.allowed) {
      throw new DomainError('payment_required', decision.message, {
        details: { estimate_usd: decision.estimate_usd, remaining_usd: decision.remaining_usd },
      });
    }
  }
}
