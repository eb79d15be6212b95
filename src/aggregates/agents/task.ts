/**
 * A task (social-routes §9; stream `task-<id>`): requested against a post,
 * assigned to a user or an agent, then completed or failed, once. The
 * handler passes in what the decision needs about the people involved (the
 * caller's admin flag, the assignee's type and owner, read from their own
 * streams), so `decide` stays pure.
 *
 * A finished task stays finished: completing it again is refused (409), so
 * its reward and its karma are counted once (the original rewarded again on
 * every call, a defect).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export interface TaskCreatedData {
  task_id: string;
  post_id: string;
  requester_id: string;
  task_description: string;
  ledger_key: string;
  created_at: string;
}

export interface Assignee {
  id: string;
  userType: string;
  /** the owner of an agent assignee (null for a human, or an agent nobody owns) */
  ownerId: string | null;
}

export interface TaskFinishedData {
  task_id: string;
  requester_id: string;
  assignee_id: string | null;
  assignee_type: string | null;
  result: string;
  finished_by: string;
  at: string;
}

export type TaskEvent =
  | { type: 'TaskCreated'; data: TaskCreatedData }
  | {
      type: 'TaskAssigned';
      data: {
        task_id: string;
        requester_id: string;
        assignee_id: string;
        assignee_type: string;
        assigned_by: string;
        /** the assigner's username, for the notification's text */
        assigned_by_username: string;
        /** who hears of it (a `task_assigned` notification): the assignee, or an agent's owner */
        notified_user_id: string;
        at: string;
      };
    }
  | { type: 'TaskCompleted'; data: TaskFinishedData }
  | { type: 'TaskFailed'; data: TaskFinishedData };

interface TaskFacts {
  taskId: string;
  postId: string;
  requesterId: string;
  description: string;
  ledgerKey: string;
  createdAt: string;
}

type AssigneeRef = Pick<Assignee, 'id' | 'userType'>;

export type TaskState =
  | { status: 'none' }
  | (TaskFacts & { status: 'open' })
  | (TaskFacts & { status: 'assigned'; assignee: AssigneeRef })
  | (TaskFacts & Finished & { status: 'completed' })
  | (TaskFacts & Finished & { status: 'failed' });

interface Finished {
  assignee: AssigneeRef | null;
  result: string;
  completedAt: string;
}

export interface Actor {
  id: string;
  isAdmin: boolean;
}

export type TaskCommand =
  | { kind: 'create'; taskId: string; postId: string; requesterId: string; description: string }
  | { kind: 'assign'; actor: Actor; assignerName: string; assignee: Assignee }
  | { kind: 'finish'; actor: Actor; result: string; success: boolean };

export const taskStreamId = (taskId: string): string => `task-${taskId}`;
export const TASK_NOT_FOUND = 'Task not found';
export const ONLY_REQUESTER_ASSIGNS = 'Only the task requester can assign this task';
export const NOT_YOUR_AGENT = "Cannot assign tasks to agents you don't own";
export const NOT_AUTHORIZED_TO_COMPLETE = 'Not authorized to complete this task';

const initialState: TaskState = { status: 'none' };

function facts(state: Exclude<TaskState, { status: 'none' }>): TaskFacts {
  const { taskId, postId, requesterId, description, ledgerKey, createdAt } = state;
  return { taskId, postId, requesterId, description, ledgerKey, createdAt };
}

function evolve(state: TaskState, event: TaskEvent): TaskState {
  switch (event.type) {
    case 'TaskCreated': {
      const d = event.data;
      return { status: 'open', taskId: d.task_id, postId: d.post_id, requesterId: d.requester_id, description: d.task_description, ledgerKey: d.ledger_key, createdAt: d.created_at };
    }
    case 'TaskAssigned':
      if (state.status === 'none') return state;
      return { ...facts(state), status: 'assigned', assignee: { id: event.data.assignee_id, userType: event.data.assignee_type } };
    case 'TaskCompleted':
    case 'TaskFailed': {
      if (state.status === 'none') return state;
      const finished: TaskFacts & Finished = {
        ...facts(state),
        assignee: state.status === 'assigned' ? state.assignee : null,
        result: event.data.result,
        completedAt: event.data.at,
      };
      return event.type === 'TaskCompleted' ? { ...finished, status: 'completed' } : { ...finished, status: 'failed' };
    }
    default:
      return assertNever(event);
  }
}

function existing(state: TaskState): Exclude<TaskState, { status: 'none' }> {
  if (state.status === 'none') throw new DomainError('not_found', TASK_NOT_FOUND);
  return state;
}

function unfinished(state: Exclude<TaskState, { status: 'none' }>): Extract<TaskState, { status: 'open' | 'assigned' }> {
  if (state.status === 'completed' || state.status === 'failed') throw new DomainError('conflict', `Task is already ${state.status}`);
  return state;
}

function decide(command: TaskCommand, state: TaskState, now: Date): TaskEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'create': {
      if (state.status !== 'none') throw new DomainError('conflict', 'Task already exists');
      const description = command.description.trim();
      if (!description) throw new DomainError('invalid', 'task_description is required');
      return [
        {
          type: 'TaskCreated',
          data: {
            task_id: command.taskId,
            post_id: command.postId,
            requester_id: command.requesterId,
            task_description: command.description,
            ledger_key: `task_${command.requesterId}_${command.taskId}`,
            created_at: at,
          },
        },
      ];
    }
    case 'assign': {
      const task = existing(state);
      if (task.requesterId !== command.actor.id && !command.actor.isAdmin) throw new DomainError('forbidden', ONLY_REQUESTER_ASSIGNS);
      unfinished(task);
      const { assignee } = command;
      if (assignee.userType === 'agent' && assignee.ownerId !== command.actor.id && !command.actor.isAdmin) throw new DomainError('forbidden', NOT_YOUR_AGENT);
      return [
        {
          type: 'TaskAssigned',
          data: {
            task_id: task.taskId,
            requester_id: task.requesterId,
            assignee_id: assignee.id,
            assignee_type: assignee.userType,
            assigned_by: command.actor.id,
            assigned_by_username: command.assignerName,
            notified_user_id: assignee.userType === 'agent' && assignee.ownerId ? assignee.ownerId : assignee.id,
            at,
          },
        },
      ];
    }
    case 'finish': {
      const task = existing(state);
      const assigneeId = task.status === 'open' ? null : (task.assignee?.id ?? null);
      const allowed = command.actor.isAdmin || command.actor.id === task.requesterId || command.actor.id === assigneeId;
      if (!allowed) throw new DomainError('forbidden', NOT_AUTHORIZED_TO_COMPLETE);
      const open = unfinished(task);
      const data: TaskFinishedData = {
        task_id: open.taskId,
        requester_id: open.requesterId,
        assignee_id: assigneeId,
        assignee_type: open.status === 'assigned' ? open.assignee.userType : null,
        result: command.result,
        finished_by: command.actor.id,
        at,
      };
      return [command.success ? { type: 'TaskCompleted', data } : { type: 'TaskFailed', data }];
    }
    default:
      return assertNever(command);
  }
}

export const taskDecider: Decider<TaskState, TaskCommand, TaskEvent> = { initialState, evolve, decide };
