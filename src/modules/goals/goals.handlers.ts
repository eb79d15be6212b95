/**
 * Command handlers of the goals context: each loads `goal-<id>`, decides and
 * appends through the CommandExecutor. Background commands (saga, results,
 * sweep) do not wait for the read model and retry revision conflicts more,
 * since results, timeouts and dispatches of one goal can race.
 */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type GoalCommand, goalDecider, goalStreamId } from '../../aggregates/goals/goal';
import { type CommandContext, CommandExecutor } from '../common/command-executor';
import {
  AcceptGoal,
  type AcceptedGoal,
  CompleteSubtask,
  DispatchSubtasks,
  ExpireSubtasks,
  FailSubtask,
  type GoalChange,
} from './goals.commands';

const BACKGROUND = { maxRetries: 20, readYourWrites: false } as const;

@CommandHandler(AcceptGoal)
export class AcceptGoalHandler implements ICommandHandler<AcceptGoal> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, context }: AcceptGoal): Promise<AcceptedGoal> {
    const { state } = await this.executor.execute(goalDecider, goalStreamId(input.goalId), { kind: 'accept', ...input }, context);
    return {
      goal_id: input.goalId,
      status: 'accepted',
      subtasks: state.subtasks.map((s) => ({ subtask_id: s.id, description: s.description })),
      planned_by: input.plannedBy,
    };
  }
}

async function background(executor: CommandExecutor, goalId: string, command: GoalCommand, context: CommandContext): Promise<GoalChange> {
  const { events } = await executor.execute(goalDecider, goalStreamId(goalId), command, context, BACKGROUND);
  return { recorded: events.length };
}

@CommandHandler(DispatchSubtasks)
export class DispatchSubtasksHandler implements ICommandHandler<DispatchSubtasks> {
  constructor(private readonly executor: CommandExecutor) {}

  execute(c: DispatchSubtasks): Promise<GoalChange> {
    return background(this.executor, c.goalId, { kind: 'dispatch' }, c.context);
  }
}

@CommandHandler(CompleteSubtask)
export class CompleteSubtaskHandler implements ICommandHandler<CompleteSubtask> {
  constructor(private readonly executor: CommandExecutor) {}

  execute(c: CompleteSubtask): Promise<GoalChange> {
    const command: GoalCommand = {
      kind: 'complete',
      subtaskId: c.subtaskId,
      attempt: c.attempt,
      result: c.result,
      nodeId: c.nodeId,
      source: c.source,
      model: c.model,
    };
    return background(this.executor, c.goalId, command, c.context);
  }
}

@CommandHandler(FailSubtask)
export class FailSubtaskHandler implements ICommandHandler<FailSubtask> {
  constructor(private readonly executor: CommandExecutor) {}

  execute(c: FailSubtask): Promise<GoalChange> {
    return background(this.executor, c.goalId, { kind: 'fail', subtaskId: c.subtaskId, attempt: c.attempt, error: c.error }, c.context);
  }
}

@CommandHandler(ExpireSubtasks)
export class ExpireSubtasksHandler implements ICommandHandler<ExpireSubtasks> {
  constructor(private readonly executor: CommandExecutor) {}

  execute(c: ExpireSubtasks): Promise<GoalChange> {
    return background(this.executor, c.goalId, { kind: 'expire' }, c.context);
  }
}

export const GOAL_COMMAND_HANDLERS = [AcceptGoalHandler, DispatchSubtasksHandler, CompleteSubtaskHandler, FailSubtaskHandler, ExpireSubtasksHandler];
