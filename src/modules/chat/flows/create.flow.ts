/**
 * CREATE: the agent is proposed (Creation Mode), shown for review (Review
 * Mode), then run and saved as a recipe; an autonomous request goes through
 * all of it at once. The prompt's steps come from the agent's tools; each
 * becomes an action with its tool and that tool's input, so the saved recipe
 * replays from its inputs alone (reuse.flow.ts).
 */
import { Injectable } from '@nestjs/common';
import { type AgentDraft, recipeStreamId } from '../../../aggregates/chat/chat.events';
import { creationModeText, type CreateStep, nextCreateStep, reviewModeText } from '../../../aggregates/chat/agent-creation';
import type { ConversationState } from '../../../aggregates/chat/conversation';
import { completedCount, recipeDecider, type RecipeState, recipeVersion } from '../../../aggregates/chat/recipe';
import { leftIn } from '../../../aggregates/shared/decider';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import type { ChatRequest } from '../chat-pipeline';
import { AgentTools } from '../tools/agent-tools';
import { ActionRunner } from './action-runner';
import { flowIdOf, newId, NO_USAGE, resultLines, type Turn } from './turn';
import { TurnResponses } from './turn-responses';

@Injectable()
export class CreateFlow {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runner: ActionRunner,
    private readonly tools: AgentTools,
    private readonly responses: TurnResponses,
  ) {}

  async turn(request: ChatRequest, prompt: string, state: ConversationState, recipe: RecipeState, context: CommandContext): Promise<Turn> {
    const steps = this.tools.plan(prompt);
    const step = nextCreateStep({ creation: state.creation, prompt, steps, autonomous: request.autonomous });
    const flowId = flowIdOf(request.promptId, recipeVersion(recipe) + 1);
    switch (step.kind) {
      case 'propose':
      case 'review':
        return this.show(step, flowId);
      case 'run':
        return this.runAndSave(request, step.draft, recipe, flowId, context);
    }
  }

  /** Creation Mode (the draft proposed) or Review Mode (the draft as it will be saved). */
  private show(step: Exclude<CreateStep, { kind: 'run' }>, flowId: string): Turn {
    const [text, stage] = step.kind === 'propose' ? [creationModeText(step.draft), 'gathering' as const] : [reviewModeText(step.draft), 'review' as const];
    return {
      move: { kind: step.kind, draft: step.draft },
      response: this.responses.respond({ response: text, flow_id: flowId, stage, actions_completed: 0, recipe_saved: false }, NO_USAGE),
      expertRun: null,
    };
  }

  private async runAndSave(request: ChatRequest, draft: AgentDraft, recipe: RecipeState, flowId: string, context: CommandContext): Promise<Turn> {
    const { results, usage } = await this.runner.run(draft.actions, request.modelConfig?.model);
    const runId = newId('run');
    const recipeId = recipe.status === 'none' ? newId('recipe') : recipe.recipeId;
    const { state } = await this.executor.execute(
      recipeDecider,
      recipeStreamId(request.userId, request.promptId),
      { kind: 'createAndSave', recipeId, userId: request.userId, promptId: request.promptId, name: draft.name, goal: draft.goal, flowId, actions: draft.actions, runId, results },
      context,
    );
    const saved = leftIn(state, 'saved');
    const done = completedCount(results);
    const text = [
      `Agent "${draft.name}" is saved as a recipe (version ${saved.version}); ${done} of ${draft.actions.length} actions completed. Send a prompt with prompt_id "${request.promptId}" to run it again.`,
      ...resultLines(draft.actions, results),
    ].join('\n');
    return {
      move: { kind: 'complete', recipeId: saved.recipeId, version: saved.version },
      response: this.responses.respond({ response: text, flow_id: flowId, stage: 'completed', actions_completed: done, recipe_saved: true }, usage),
      expertRun: null,
    };
  }
}
