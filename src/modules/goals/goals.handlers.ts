/**
 * Command handlers of the goals context: each loads `goal-<id>`, decides and
 * appends through the CommandExecutor. Background commands (saga, results,
 * sweep) do not wait for the read model and retry revision conflicts more,
 * since results, timeouts and dispatches of one goal can race.
 */
import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type GoalCommand, goalDecider, goalStreamId } from '../../aggregates/goals/goal';
import { leftIn } from '../../aggregates/shared/decider';
import { LLM, type LanguageModel } from '../../infrastructure/llm/llm.port';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import { planGoal } from './goal-planner';
import {
  AcceptGoal,
  type AcceptedGoal,
  CompleteSubtask,
  DispatchSubtasks,
  ExpireSubtasks,
  FailSubtask,
  type GoalChange,
  type OnGoal,
} from './goals.commands';

const BACKGROUND = { maxRetries: 20, readYourWrites: false } as const;

/**
 * Plans the sub-tasks (goal-planner.ts: the client's list, a model, or the
 * offline splitter), then records GoalAccepted under a new goal id. The work
 * itself happens over the hive, after the request.
 */
@CommandHandler(AcceptGoal)
export class AcceptGoalHandler implements ICommandHandler<AcceptGoal> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(LLM) private readonly llm: LanguageModel,
  ) {}

  async execute({ payload, context }: AcceptGoal): Promise<AcceptedGoal> {
    const goalId = randomUUID();
    const plan = await planGoal(payload.goal, this.llm, payload.subtasks, context.correlationId);
    const { state } = await this.executor.execute(
      goalDecider,
      goalStreamId(goalId),
      { kind: 'accept', ...payload, goalId, subtasks: plan.subtasks, plannedBy: plan.plannedBy },
      context,
    );
    return {
      goal_id: goalId,
      status: 'accepted',
      subtasks: leftIn(state, 'accepted').subtasks.map((s) => ({ subtask_id: s.id, description: s.description })),
      planned_by: plan.plannedBy,
    };
  }
}

/** Runs one background command of a kind on its goal's stream. */
async function onGoal<K extends GoalCommand['kind']>(
  executor: CommandExecutor,
  kind: K,
  { goalId, ...input }: OnGoal<K>,
  context: CommandContext,
): Promise<GoalChange> {
  const command = { kind, ...input } as Extract<GoalCommand, { kind: K }>;
  const { events } = await executor.execute(goalDecider, goalStreamId(goalId), command, context, BACKGROUND);
  return { recorded: events.length };
}

@CommandHandler(DispatchSubtasks)
export class DispatchSubtasksHandler implements ICommandHandler<DispatchSubtasks> {
  constructor(private readonly executor: CommandExecutor) {}

  execute({ payload, context }: DispatchSubtasks): Promise<GoalChange> {
    return onGoal(this.executor, 'dispatch', payload, context);
  }
}

@CommandHandler(CompleteSubtask)
export class CompleteSubtaskHandler implements ICommandHandler<CompleteSubtask> {
  constructor(private readonly executor: CommandExecutor) {}

  execute({ payload, context }: CompleteSubtask): Promise<GoalChange> {
    return onGoal(this.executor, 'complete', payload, context);
  }
}

@CommandHandler(FailSubtask)
export class FailSubtaskHandler implements ICommandHandler<FailSubtask> {
  constructor(private readonly executor: CommandExecutor) {}

  execute({ payload, context }: FailSubtask): Promise<GoalChange> {
    return onGoal(this.executor, 'fail', payload, context);
  }
}

@CommandHandler(ExpireSubtasks)
export class ExpireSubtasksHandler implements ICommandHandler<ExpireSubtasks> {
  constructor(private readonly executor: CommandExecutor) {}

  execute({ payload, context }: ExpireSubtasks): Promise<GoalChange> {
    return onGoal(this.executor, 'expire', payload, context);
  }
}

export const GOAL_COMMAND_HANDLERS = [AcceptGoalHandler, DispatchSubtasksHandler, CompleteSubtaskHandler, FailSubtaskHandler, ExpireSubtasksHandler];
