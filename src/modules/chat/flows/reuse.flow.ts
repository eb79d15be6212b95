/**
 * REUSE: a saved recipe runs again from its stored actions and inputs (no
 * model plans anything), and the run is recorded on the recipe.
 */
import { Injectable } from '@nestjs/common';
import { recipeStreamId } from '../../../aggregates/chat/chat.events';
import { completedCount, recipeActions, recipeDecider, type SavedRecipe } from '../../../aggregates/chat/recipe';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import type { ChatRequest } from '../chat-pipeline';
import { ActionRunner } from './action-runner';
import { flowIdOf, newId, resultLines, type Turn } from './turn';
import { TurnResponses } from './turn-responses';

@Injectable()
export class ReuseFlow {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly runner: ActionRunner,
    private readonly responses: TurnResponses,
  ) {}

  async turn(request: ChatRequest, recipe: SavedRecipe, context: CommandContext): Promise<Turn> {
    const actions = recipeActions(recipe);
    const { results, usage } = await this.runner.run(actions, request.modelConfig?.model);
    const runId = newId('run');
    await this.executor.execute(recipeDecider, recipeStreamId(request.userId, request.promptId), { kind: 'reuse', runId, results }, context);
    const done = completedCount(results);
    const text = [`Reused recipe "${recipe.name}" (version ${recipe.version}): ${done} of ${actions.length} actions completed.`, ...resultLines(actions, results)].join('\n');
    return {
      move: { kind: 'stay' },
      response: this.responses.respond({ response: text, flow_id: flowIdOf(request.promptId, recipe.version), stage: 'reused', actions_completed: done, recipe_saved: false }, usage),
      expertRun: null,
    };
  }
}
