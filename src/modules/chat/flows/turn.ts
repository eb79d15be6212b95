/**
 * What every mode of the pipeline computes: a turn (how it moves the CREATE
 * flow, the response, an expert run wanted), and the helpers the modes share.
 */
import { randomHex } from '../../common/random-ids';
import type { PromptReceived } from '../../../aggregates/chat/chat.events';
import type { ActionResult } from '../../../aggregates/chat/recipe';
import type { StageMove, TurnResponse } from '../../../aggregates/chat/conversation';
import type { LlmCompletion } from '../../../infrastructure/llm/llm.port';
import type { RunUsage } from './action-runner';

export const SYSTEM_PROMPT = 'You are a helpful assistant of an agent platform. Answer plainly and concisely.';

export interface Turn {
  move: StageMove;
  response: TurnResponse;
  expertRun: { runId: string; model: string | null } | null;
}

/** A turn and the mode it is recorded under. */
export type ModeTurn = Turn & { mode: PromptReceived['data']['mode'] };

export const NO_USAGE: RunUsage = { promptTokens: 0, completionTokens: 0, usedModel: false };

export function newId(prefix: string): string {
  return `${prefix}_${randomHex(10)}`;
}

export function usageOf(answer: LlmCompletion): RunUsage {
  return { promptTokens: answer.usage.promptTokens, completionTokens: answer.usage.completionTokens, usedModel: answer.source === 'model' };
}

export function flowIdOf(promptId: string, version: number): string {
  return `${promptId}:v${Math.max(1, version)}`;
}

/** One line per action: its description and its result. */
export function resultLines(actions: readonly { index: number; description: string }[], results: readonly ActionResult[]): string[] {
  return actions.map((action, i) => {
    const result = results[i];
    const outcome = !result ? 'not run' : result.status === 'failed' ? `failed: ${result.output}` : result.output;
    return `${action.index + 1}. ${action.description} → ${outcome}`;
  });
}
