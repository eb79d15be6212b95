/**
 * Splits a goal into sub-tasks. In this order:
 * - the client's own list, as given (`planned_by: client`);
 * - with a language model behind the LLM port: the model is asked for a
 *   numbered list and its list items are the sub-tasks (`model`);
 * - otherwise, or when the model is unreachable or answers without a list:
 *   the agent's step splitter (chat/tools/steps.ts: list items, `;`, sequence words;
 *   `offline`), so a goal is accepted even with no model, and says so.
 *
 * At most MAX_SUBTASKS: what a plan has beyond that joins the last sub-task,
 * so no part of the goal is silently dropped.
 */
import { Logger } from '@nestjs/common';
import { MAX_DESCRIPTION_CHARS, MAX_SUBTASKS, type PlannedBy } from '../../aggregates/goals/goal';
import type { LanguageModel } from '../../infrastructure/llm/llm.port';
import { splitSteps } from '../chat/tools/steps';

export interface GoalPlan {
  subtasks: string[];
  plannedBy: PlannedBy;
}

export const PLANNER_INSTRUCTIONS =
  `Split the user's goal into 1 to ${MAX_SUBTASKS} concrete sub-tasks that can be done independently. ` +
  'Answer only with a numbered list, one sub-task per line, no other text.';

const LIST_LINE = /^\s*(?:\(?\d{1,3}[.):]|[-*•])\s+\S/m;
const logger = new Logger('GoalPlanner');

/** Keeps at most MAX_SUBTASKS, joining the rest into the last, each cut to the description limit. */
export function fitPlan(steps: string[]): string[] {
  const cleaned = steps.map((s) => s.trim()).filter((s) => s !== '');
  const fitted = cleaned.length <= MAX_SUBTASKS ? cleaned : [...cleaned.slice(0, MAX_SUBTASKS - 1), cleaned.slice(MAX_SUBTASKS - 1).join('; ')];
  return fitted.map((s) => s.slice(0, MAX_DESCRIPTION_CHARS));
}

function offlinePlan(goal: string): GoalPlan {
  const steps = splitSteps(goal);
  return { subtasks: fitPlan(steps.length > 0 ? steps : [goal]), plannedBy: 'offline' };
}

export async function planGoal(goal: string, llm: LanguageModel, explicit?: string[], correlationId?: string): Promise<GoalPlan> {
  if (explicit && explicit.length > 0) return { subtasks: explicit.map((s) => s.trim()), plannedBy: 'client' };
  if (llm.kind === 'offline') return offlinePlan(goal);
  try {
    const answer = await llm.complete({
      messages: [
        { role: 'system', content: PLANNER_INSTRUCTIONS },
        { role: 'user', content: goal },
      ],
      temperature: 0,
      correlationId,
    });
    if (answer.source === 'model' && LIST_LINE.test(answer.content)) {
      const steps = fitPlan(splitSteps(answer.content));
      if (steps.length > 0) return { subtasks: steps, plannedBy: 'model' };
    }
  } catch (error) {
    logger.warn(`the model could not plan a goal, splitting it offline: ${error instanceof Error ? error.message : String(error)}`);
  }
  return offlinePlan(goal);
}
