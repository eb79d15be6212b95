/**
 * The agent pipeline (issue 7, SPEC §2.1): before anything runs, in this
 * order, the guardrail filter (a block is recorded without the prompt's
 * text and answered 403), secret redaction (the redacted prompt is the only
 * one stored or sent to a model) and the budget gate (402 with the
 * estimate). Then the mode: casual, speculative, REUSE of the saved recipe,
 * or CREATE in stages (gathering → review → completed, or all at once when
 * autonomous). A turn is appended to the conversation as one command, so its
 * events land together; turns of one conversation queue in this process.
 */
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type AgentDraft,
  conversationStreamId,
  type HistoryMessage,
  type PromptReceived,
  recipeStreamId,
} from '../../aggregates/chat/chat.events';
import { chooseMode, nextCreateStep, creationModeText, reviewModeText } from '../../aggregates/chat/agent-creation';
import {
  conversationAnswer,
  conversationDecider,
  type ConversationState,
  type StageMove,
  type TurnResponse,
} from '../../aggregates/chat/conversation';
import { completedCount, recipeActions, recipeDecider, type ActionResult, type RecipeState } from '../../aggregates/chat/recipe';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { estimateTokens, LLM, type LanguageModel, type LlmCompletion, type LlmMessage, OFFLINE_DISCLOSURE } from '../../infrastructure/llm/llm.port';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { ComputeQueries } from '../compute/compute.queries';
import { hiveRefusal } from '../hive/hive-policy';
import { ActionRunner, type RunUsage } from './action-runner';
import { ChatPipeline, type ChatReply, type ChatRequest } from './chat-pipeline';
import { ChatQueries } from './chat.queries';
import { checkBudget, estimateCost } from './guards/budget';
import { checkGuardrail } from './guards/guardrail';
import { redactSecrets } from './guards/secret-redaction';
import { KeyedMutex } from './keyed-mutex';
import { AgentTools } from './tools/agent-tools';

const SYSTEM_PROMPT = 'You are a helpful assistant of an agent platform. Answer plainly and concisely.';

interface Turn {
  move: StageMove;
  response: TurnResponse;
  expertRun: { runId: string; model: string | null } | null;
}

function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

@Injectable()
export class DefaultChatPipeline extends ChatPipeline {
  private readonly locks = new KeyedMutex();

  constructor(
    private readonly executor: CommandExecutor,
    private readonly runner: ActionRunner,
    private readonly tools: AgentTools,
    private readonly queries: ChatQueries,
    private readonly compute: ComputeQueries,
    private readonly clock: Clock,
    @Inject(LLM) private readonly llm: LanguageModel,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async run(request: ChatRequest, context: CommandContext): Promise<ChatReply> {
    const { response, prompt_id, flow_id, actions_completed, recipe_saved } = await this.takeTurn(request, context, request.origin, async (prompt, state) => {
      const recipe = (await this.executor.load(recipeDecider, recipeStreamId(request.userId, request.promptId))).state;
      const mode = chooseMode(
        { createAgent: request.createAgent, casualConv: request.casualConv, speculative: request.speculative },
        state.stage,
        recipe.saved,
      );
      const turn =
        mode === 'casual'
          ? await this.casual(request, prompt, state, false)
          : mode === 'speculative'
            ? await this.casual(request, prompt, state, true)
            : mode === 'reuse'
              ? await this.reuse(request, recipe, context)
              : await this.create(request, prompt, state, recipe, context);
      return { ...turn, mode: mode === 'speculative' ? 'casual' : mode };
    });
    return { response, prompt_id, flow_id, actions_completed, recipe_saved };
  }

  /**
   * POST /visual_agent: a prompt about an image, through the LLM port's
   * vision input (the offline engine answers that vision needs a model, with
   * the image's type and size when it can read them), recorded in the
   * conversation like any turn.
   */
  async visual(request: ChatRequest & { imageUrl: string }, context: CommandContext): Promise<{ response: string; prompt_id: string; source: 'model' | 'offline' }> {
    const reply = await this.takeTurn(request, context, 'visual', async (prompt) => {
      const answer = await this.llm.complete({
        messages: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: prompt }],
        model: request.modelConfig?.model,
        images: [{ url: request.imageUrl }],
      });
      const response = this.response(
        { response: answer.content, flow_id: `${request.promptId}:visual`, stage: 'visual', actions_completed: 0, recipe_saved: false },
        usageOf(answer),
        answer.model,
      );
      return { mode: 'casual', move: { kind: 'stay' }, response, expertRun: null };
    });
    return { response: reply.response, prompt_id: request.promptId, source: reply.source };
  }

  /**
   * One turn of a conversation, queued behind the conversation's other turns:
   * a message already answered answers again; then the task-source check,
   * the guardrail, redaction and the budget gate; then `compute` (tools, model
   * calls) on the redacted prompt; then the turn is appended as one command.
   */
  private takeTurn(
    request: ChatRequest,
    context: CommandContext,
    origin: PromptReceived['data']['origin'],
    compute: (prompt: string, state: ConversationState) => Promise<Turn & { mode: PromptReceived['data']['mode'] }>,
  ): Promise<ChatReply & { source: 'model' | 'offline' }> {
    const stream = conversationStreamId(request.userId, request.promptId);
    return this.locks.run(stream, async () => {
      const { state } = await this.executor.load(conversationDecider, stream);
      const answered = conversationAnswer(state, request.messageId);
      if (answered) return { ...answered, prompt_id: request.promptId };

      await this.checkTaskSource(request);
      await this.guard(request, stream, context);
      const { text: prompt, redactions } = redactSecrets(request.prompt);
      await this.checkBudget(request.userId, prompt, state);

      const turn = await compute(prompt, state);
      await this.executor.execute(
        conversationDecider,
        stream,
        {
          kind: 'takeTurn',
          received: this.received(request, prompt, redactions, turn.mode, origin),
          fromStage: state.stage,
          move: turn.move,
          response: turn.response,
          expertRun: turn.expertRun,
        },
        context,
        { maxRetries: 0 },
      );
      const { response, flow_id, actions_completed, recipe_saved, source } = turn.response;
      return { response, prompt_id: request.promptId, flow_id, actions_completed, recipe_saved, source };
    });
  }

  /** POST /add_history: messages a client had elsewhere join the conversation's context (redacted like prompts). */
  async addHistory(userId: string, promptId: string, history: HistoryMessage[], context: CommandContext): Promise<{ prompt_id: string; appended: number; messages: number }> {
    const messages = history.map((m) => ({ role: m.role, content: redactSecrets(m.content).text }));
    const { state } = await this.executor.execute(conversationDecider, conversationStreamId(userId, promptId), { kind: 'appendHistory', messages }, context);
    return { prompt_id: promptId, appended: messages.length, messages: state.messageCount };
  }

  private received(
    request: ChatRequest,
    prompt: string,
    redactions: PromptReceived['data']['redactions'],
    mode: PromptReceived['data']['mode'],
    origin: PromptReceived['data']['origin'],
  ): Omit<PromptReceived['data'], 'received_at'> {
    return {
      message_id: request.messageId,
      user_id: request.userId,
      prompt_id: request.promptId,
      prompt,
      redactions,
      mode,
      task_source: request.taskSource,
      create_agent: request.createAgent,
      autonomous: request.autonomous,
      speculative: request.speculative,
      casual_conv: request.casualConv,
      model: request.modelConfig?.model ?? null,
      origin,
    };
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

  /** 403 for a blocked prompt, recorded without its text. */
  private async guard(request: ChatRequest, stream: string, context: CommandContext): Promise<void> {
    const verdict = checkGuardrail(request.prompt);
    if (verdict.allowed) return;
    await this.executor.execute(
      conversationDecider,
      stream,
      { kind: 'block', messageId: request.messageId, userId: request.userId, promptId: request.promptId, category: verdict.category },
      context,
    );
    throw new DomainError('forbidden', verdict.reason, { details: { category: verdict.category } });
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

  private costMicroUsd(promptTokens: number, completionTokens: number): number {
    const micros = Math.round(this.config.llm.pricePer1kTokensUsd * 1_000_000);
    return Math.ceil(((promptTokens + completionTokens) * micros) / 1000);
  }

  private disclose(text: string): string {
    return this.llm.kind === 'offline' && !text.startsWith(OFFLINE_DISCLOSURE) ? `${text}\n${OFFLINE_DISCLOSURE}` : text;
  }

  private response(
    fields: Omit<TurnResponse, 'cost_micro_usd' | 'source' | 'model' | 'prompt_tokens' | 'completion_tokens'>,
    usage: RunUsage,
    model?: string,
  ): TurnResponse {
    return {
      ...fields,
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      response: this.disclose(fields.response),
      source: usage.usedModel ? 'model' : 'offline',
      model: usage.usedModel ? (model ?? this.llm.defaultModel) : 'offline',
      cost_micro_usd: this.costMicroUsd(usage.promptTokens, usage.completionTokens),
    };
  }

  /** casual_conv: an answer without decomposition; speculative: the fast model's answer plus an expert run. */
  private async casual(request: ChatRequest, prompt: string, state: ConversationState, speculative: boolean): Promise<Turn> {
    const flowId = `${request.promptId}:${speculative ? 'speculative' : 'casual'}`;
    const model = speculative ? (request.modelConfig?.fast_model ?? this.fastModel()) : request.modelConfig?.model;
    const expertRun = speculative ? { runId: newId('expert'), model: request.modelConfig?.expert_model ?? request.modelConfig?.model ?? null } : null;
    const stage = speculative ? 'speculative' : 'casual';
    if (this.llm.kind === 'offline') {
      const tool = this.tools.find(prompt);
      const text = tool
        ? `${tool.run(tool.input(prompt))}`
        : `${OFFLINE_DISCLOSURE} Conversation needs a language model; this node can only run its built-in tools (${this.tools.names.join(', ')}).`;
      const usage = { promptTokens: 0, completionTokens: 0, usedModel: false };
      return { move: { kind: 'stay' }, response: this.response({ response: text, flow_id: flowId, stage, actions_completed: 0, recipe_saved: false }, usage), expertRun };
    }
    const messages: LlmMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...state.context, { role: 'user', content: prompt }];
    const answer = await this.llm.complete({ messages, model });
    return {
      move: { kind: 'stay' },
      response: this.response({ response: answer.content, flow_id: flowId, stage, actions_completed: 0, recipe_saved: false }, usageOf(answer), answer.model),
      expertRun,
    };
  }

  private fastModel(): string | undefined {
    return this.config.llm.provider === 'openai' ? this.config.llm.fastModel : undefined;
  }

  /** REUSE: replay the saved recipe's actions from their stored inputs. */
  private async reuse(request: ChatRequest, recipe: RecipeState, context: CommandContext): Promise<Turn> {
    const actions = recipeActions(recipe);
    const { results, usage } = await this.runner.run(actions, request.modelConfig?.model);
    const runId = newId('run');
    await this.executor.execute(recipeDecider, recipeStreamId(request.userId, request.promptId), { kind: 'reuse', runId, results }, context);
    const done = completedCount(results);
    const text = [`Reused recipe "${recipe.name}" (version ${recipe.version}): ${done} of ${actions.length} actions completed.`, ...resultLines(actions, results)].join('\n');
    return {
      move: { kind: 'stay' },
      response: this.response({ response: text, flow_id: flowIdOf(request.promptId, recipe.version), stage: 'reused', actions_completed: done, recipe_saved: false }, usage),
      expertRun: null,
    };
  }

  /** CREATE: propose the agent (Creation Mode), show it for review (Review Mode), then run and save it. */
  private async create(request: ChatRequest, prompt: string, state: ConversationState, recipe: RecipeState, context: CommandContext): Promise<Turn> {
    const steps = this.tools.plan(prompt);
    const step = nextCreateStep({ stage: state.stage, draft: state.draft, prompt, steps, autonomous: request.autonomous });
    const flowId = flowIdOf(request.promptId, recipe.version + 1);
    const none = { promptTokens: 0, completionTokens: 0, usedModel: false };
    switch (step.kind) {
      case 'propose':
        return {
          move: { kind: 'propose', draft: step.draft },
          response: this.response({ response: creationModeText(step.draft), flow_id: flowId, stage: 'gathering', actions_completed: 0, recipe_saved: false }, none),
          expertRun: null,
        };
      case 'review':
        return {
          move: { kind: 'review', draft: step.draft },
          response: this.response({ response: reviewModeText(step.draft), flow_id: flowId, stage: 'review', actions_completed: 0, recipe_saved: false }, none),
          expertRun: null,
        };
      case 'run':
        return this.runAndSave(request, step.draft, recipe, flowId, context);
    }
  }

  private async runAndSave(request: ChatRequest, draft: AgentDraft, recipe: RecipeState, flowId: string, context: CommandContext): Promise<Turn> {
    const { results, usage } = await this.runner.run(draft.actions, request.modelConfig?.model);
    const runId = newId('run');
    const recipeId = recipe.recipeId ?? newId('recipe');
    const { state: saved } = await this.executor.execute(
      recipeDecider,
      recipeStreamId(request.userId, request.promptId),
      { kind: 'createAndSave', recipeId, userId: request.userId, promptId: request.promptId, name: draft.name, goal: draft.goal, flowId, actions: draft.actions, runId, results },
      context,
    );
    const done = completedCount(results);
    const text = [
      `Agent "${draft.name}" is saved as a recipe (version ${saved.version}); ${done} of ${draft.actions.length} actions completed. Send a prompt with prompt_id "${request.promptId}" to run it again.`,
      ...resultLines(draft.actions, results),
    ].join('\n');
    return {
      move: { kind: 'complete', recipeId: saved.recipeId!, version: saved.version },
      response: this.response({ response: text, flow_id: flowId, stage: 'completed', actions_completed: done, recipe_saved: true }, usage),
      expertRun: null,
    };
  }
}

function usageOf(answer: LlmCompletion): RunUsage {
  return { promptTokens: answer.usage.promptTokens, completionTokens: answer.usage.completionTokens, usedModel: answer.source === 'model' };
}

function flowIdOf(promptId: string, version: number): string {
  return `${promptId}:v${Math.max(1, version)}`;
}

function resultLines(actions: readonly { index: number; description: string }[], results: readonly ActionResult[]): string[] {
  return actions.map((action, i) => {
    const result = results[i];
    const outcome = !result ? 'not run' : result.status === 'failed' ? `failed: ${result.output}` : result.output;
    return `${action.index + 1}. ${action.description} → ${outcome}`;
  });
}
