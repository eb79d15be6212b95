/**
 * An A2A task (SPEC §4.6), stream `a2aTask-<userId>/<taskId>`: one message
 * sent to an agent of this node by one caller, and its life
 * submitted → working → completed | failed | canceled.
 *
 * - The task id is the `messageId` of `message/send` (facts, A2A); the
 *   stream is keyed by the caller too, so two callers choosing the same id
 *   never meet, and a task is visible only to the caller that created it.
 * - A task is canceled only while submitted or working; anything else is
 *   refused with "Cannot cancel task in state <state>".
 * - The pipeline cannot be interrupted: a run that finishes after a cancel
 *   records its outcome nowhere here (the task stays canceled); the turn
 *   itself is in the caller's conversation like any /chat turn.
 * - Submitting an id that exists again records nothing (a retried send).
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider, DomainEvent } from '../shared/decider';

export type A2aTaskState = 'submitted' | 'working' | 'completed' | 'failed' | 'canceled';
export const A2A_TASK_STATES: readonly A2aTaskState[] = ['submitted', 'working', 'completed', 'failed', 'canceled'];
export const FINAL_A2A_STATES: readonly A2aTaskState[] = ['completed', 'failed', 'canceled'];

export type A2aTaskSubmitted = DomainEvent<
  'A2aTaskSubmitted',
  {
    task_id: string;
    context_id: string;
    user_id: string;
    agent_id: string;
    /** the agent's prompt id: the conversation and recipe the run uses */
    prompt_id: string;
    /** the message's text parts, joined (what the pipeline is given; it redacts before storing anything else) */
    text_chars: number;
    submitted_at: string;
  }
>;
export type A2aTaskStarted = DomainEvent<'A2aTaskStarted', { task_id: string; started_at: string }>;
export type A2aTaskCompleted = DomainEvent<'A2aTaskCompleted', { task_id: string; response: string; completed_at: string }>;
export type A2aTaskFailed = DomainEvent<'A2aTaskFailed', { task_id: string; error: string; failed_at: string }>;
export type A2aTaskCanceled = DomainEvent<'A2aTaskCanceled', { task_id: string; canceled_at: string }>;

export type A2aTaskEvent = A2aTaskSubmitted | A2aTaskStarted | A2aTaskCompleted | A2aTaskFailed | A2aTaskCanceled;

export const a2aTaskStreamId = (userId: string, taskId: string): string => `a2aTask-${userId}/${taskId}`;

export type A2aTaskAggregate =
  | { status: 'none' }
  | { status: A2aTaskState; taskId: string; contextId: string; agentId: string; userId: string; promptId: string };

export type A2aTaskCommand =
  | { kind: 'submit'; taskId: string; contextId: string; userId: string; agentId: string; promptId: string; textChars: number }
  | { kind: 'start' }
  | { kind: 'complete'; response: string }
  | { kind: 'fail'; error: string }
  /** `agentId`: the agent the cancel was sent to; a task of another agent is not found there */
  | { kind: 'cancel'; agentId: string };

/** What a completed task keeps of its answer (the full answer is in the conversation too). */
export const A2A_RESPONSE_MAX_CHARS = 20_000;

function notFound(): never {
  throw new DomainError('not_found', 'task not found');
}

export const a2aTaskDecider: Decider<A2aTaskAggregate, A2aTaskCommand, A2aTaskEvent> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    switch (event.type) {
      case 'A2aTaskSubmitted': {
        const d = event.data;
        return { status: 'submitted', taskId: d.task_id, contextId: d.context_id, agentId: d.agent_id, userId: d.user_id, promptId: d.prompt_id };
      }
      case 'A2aTaskStarted':
        return state.status === 'none' ? state : { ...state, status: 'working' };
      case 'A2aTaskCompleted':
        return state.status === 'none' ? state : { ...state, status: 'completed' };
      case 'A2aTaskFailed':
        return state.status === 'none' ? state : { ...state, status: 'failed' };
      case 'A2aTaskCanceled':
        return state.status === 'none' ? state : { ...state, status: 'canceled' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'submit':
        if (state.status !== 'none') return [];
        return [
          {
            type: 'A2aTaskSubmitted',
            data: {
              task_id: command.taskId,
              context_id: command.contextId,
              user_id: command.userId,
              agent_id: command.agentId,
              prompt_id: command.promptId,
              text_chars: command.textChars,
              submitted_at: at,
            },
          },
        ];
      case 'start':
        if (state.status === 'none') return notFound();
        return state.status === 'submitted' ? [{ type: 'A2aTaskStarted', data: { task_id: state.taskId, started_at: at } }] : [];
      case 'complete':
        if (state.status === 'none') return notFound();
        // a run that ends after a cancel (or twice) changes nothing
        if (state.status !== 'working' && state.status !== 'submitted') return [];
        return [{ type: 'A2aTaskCompleted', data: { task_id: state.taskId, response: command.response.slice(0, A2A_RESPONSE_MAX_CHARS), completed_at: at } }];
      case 'fail':
        if (state.status === 'none') return notFound();
        if (state.status !== 'working' && state.status !== 'submitted') return [];
        return [{ type: 'A2aTaskFailed', data: { task_id: state.taskId, error: command.error.slice(0, 500), failed_at: at } }];
      case 'cancel':
        if (state.status === 'none' || state.agentId !== command.agentId) return notFound();
        if (state.status !== 'submitted' && state.status !== 'working') {
          throw new DomainError('conflict', `Cannot cancel task in state ${state.status}`);
        }
        return [{ type: 'A2aTaskCanceled', data: { task_id: state.taskId, canceled_at: at } }];
      default:
        return assertNever(command);
    }
  },
};
