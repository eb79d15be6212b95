/**
 * Runs a recipe's actions: an action with a built-in tool runs that tool on
 * its stored input (so a saved recipe replays from its inputs alone); an
 * action without one goes to the language model, or, on the offline engine,
 * is reported as needing a model. A failing action does not stop the others.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { RecipeAction } from '../../../aggregates/chat/chat.events';
import type { ActionResult } from '../../../aggregates/chat/recipe';
import { LLM, type LanguageModel, LlmRequestError, LlmUnavailableError } from '../../../infrastructure/llm/llm.port';
import { AgentTools } from '../tools/agent-tools';

export const NEEDS_MODEL = 'needs a language model: none is configured on this node';
const STEP_SYSTEM_PROMPT =
  'You carry out one step of a saved agent recipe. Answer with the result of the step only, concisely.';

export interface RunUsage {
  promptTokens: number;
  completionTokens: number;
  /** whether a language model produced any of the outputs */
  usedModel: boolean;
}

@Injectable()
export class ActionRunner {
  constructor(
    @Inject(LLM) private readonly llm: LanguageModel,
    private readonly tools: AgentTools,
  ) {}

  async run(actions: readonly RecipeAction[], model: string | undefined): Promise<{ results: ActionResult[]; usage: RunUsage }> {
    const usage: RunUsage = { promptTokens: 0, completionTokens: 0, usedModel: false };
    const results: ActionResult[] = [];
    for (const action of actions) results.push(await this.runOne(action, model, usage));
    return { results, usage };
  }

  private async runOne(action: RecipeAction, model: string | undefined, usage: RunUsage): Promise<ActionResult> {
    const base = { action_index: action.index, tool: action.tool };
    const outcome = this.tools.run(action);
    if (outcome.kind === 'done') return { ...base, status: 'completed', output: outcome.result };
    if (outcome.kind === 'failed') return { ...base, status: 'failed', output: outcome.error };
    if (this.llm.kind === 'offline') return { ...base, status: 'needs_model', output: NEEDS_MODEL };
    try {
      const answer = await this.llm.complete({
        model,
        messages: [
          { role: 'system', content: STEP_SYSTEM_PROMPT },
          { role: 'user', content: action.description },
        ],
      });
      usage.promptTokens += answer.usage.promptTokens;
      usage.completionTokens += answer.usage.completionTokens;
      usage.usedModel ||= answer.source === 'model';
      return { ...base, status: 'completed', output: answer.content.trim() };
    } catch (error) {
      if (!(error instanceof LlmUnavailableError) && !(error instanceof LlmRequestError)) throw error;
      return { ...base, status: 'failed', output: `the language model failed: ${error.message}` };
    }
  }
}
