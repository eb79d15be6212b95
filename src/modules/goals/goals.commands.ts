/**
 * Commands of the goals context, dispatched on the @nestjs/cqrs CommandBus:
 * AcceptGoal from HTTP; the rest from the dispatch saga, the hive results
 * listener and the timeout sweep. Each is idempotent (see the goal aggregate).
 */
import { Command } from '@nestjs/cqrs';
import type { GoalCommand, PlannedBy } from '../../aggregates/goals/goal';
import type { CommandContext } from '../common/command-executor';

export interface AcceptedGoal {
  goal_id: string;
  status: 'accepted';
  subtasks: { subtask_id: string; description: string }[];
  planned_by: PlannedBy;
}

export class AcceptGoal extends Command<AcceptedGoal> {
  constructor(
    readonly input: Omit<Extract<GoalCommand, { kind: 'accept' }>, 'kind'>,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Result of a background goal command: whether anything was recorded. */
export interface GoalChange {
  recorded: number;
}

/** Records SubtaskDispatched for every sub-task waiting for a (re)try. */
export class DispatchSubtasks extends Command<GoalChange> {
  constructor(
    readonly goalId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class CompleteSubtask extends Command<GoalChange> {
  constructor(
    readonly goalId: string,
    readonly subtaskId: string,
    readonly attempt: number,
    readonly result: string,
    readonly nodeId: string,
    readonly source: 'model' | 'offline',
    readonly model: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** A worker's error on one attempt. */
export class FailSubtask extends Command<GoalChange> {
  constructor(
    readonly goalId: string,
    readonly subtaskId: string,
    readonly attempt: number,
    readonly error: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** Fails the attempts whose deadline passed (the timeout sweep). */
export class ExpireSubtasks extends Command<GoalChange> {
  constructor(
    readonly goalId: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
