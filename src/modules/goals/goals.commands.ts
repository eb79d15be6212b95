/**
 * Commands of the goals context, dispatched on the @nestjs/cqrs CommandBus:
 * AcceptGoal from HTTP; the rest from the dispatch saga, the hive results
 * listener and the timeout sweep. Each is idempotent (see the goal aggregate).
 */
import type { GoalCommand, PlannedBy } from '../../aggregates/goals/goal';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';

export interface AcceptedGoal {
  goal_id: string;
  status: 'accepted';
  subtasks: { subtask_id: string; description: string }[];
  planned_by: PlannedBy;
}

/**
 * A goal as the client asked for it: the handler plans its sub-tasks (the
 * client's own list when given, else goal-planner.ts) and names the goal.
 */
export type GoalRequest = Pick<CommandInput<GoalCommand, 'accept'>, 'userId' | 'goal' | 'timeoutSec' | 'maxAttempts'> & {
  /** the client's own split; absent: the planner splits the goal */
  subtasks?: string[];
};

export class AcceptGoal extends DomainCommand<GoalRequest, AcceptedGoal> {}

/** Result of a background goal command: whether anything was recorded. */
export interface GoalChange {
  recorded: number;
}

/** A command on one goal: its id and the decider command's fields. */
export type OnGoal<K extends GoalCommand['kind']> = { goalId: string } & CommandInput<GoalCommand, K>;

/** Records SubtaskDispatched for every sub-task waiting for a (re)try. */
export class DispatchSubtasks extends DomainCommand<OnGoal<'dispatch'>, GoalChange> {}

export class CompleteSubtask extends DomainCommand<OnGoal<'complete'>, GoalChange> {}

/** A worker's error on one attempt. */
export class FailSubtask extends DomainCommand<OnGoal<'fail'>, GoalChange> {}

/** Fails the attempts whose deadline passed (the timeout sweep). */
export class ExpireSubtasks extends DomainCommand<OnGoal<'expire'>, GoalChange> {}
