/** Commands of the A2A context, dispatched on the @nestjs/cqrs CommandBus. */
import type { A2aTaskState } from '../../aggregates/a2a/a2a-task';
import type { CommandContext } from '../common/command-executor';
import { DomainCommand } from '../common/domain-command';

/** What a task looks like after a command: the state it was left in, its answer or why it failed. */
export interface A2aTaskOutcome {
  taskId: string;
  contextId: string;
  state: A2aTaskState;
  timestamp: string;
  content: string | null;
  error: string | null;
}

export interface A2aSendPayload {
  userId: string;
  agentId: string;
  /** the agent's prompt id: its recipe and the caller's conversation with it */
  promptId: string;
  taskId: string;
  contextId: string;
  text: string;
}

/**
 * message/send: the task is submitted, started, run through the /chat
 * pipeline as the caller on the agent's prompt id (REUSE of its recipe), and
 * completed or failed. A task id the caller used before runs nothing and
 * answers null (the caller reads the task).
 */
export class SendA2aMessage extends DomainCommand<A2aSendPayload, A2aTaskOutcome | null> {
  constructor(
    payload: A2aSendPayload,
    context: CommandContext,
    /** called with the task after each step (the SSE stream of message/stream) */
    readonly progress?: (outcome: A2aTaskOutcome) => void,
  ) {
    super(payload, context);
  }
}

/** task/cancel: only while submitted or working. */
export class CancelA2aTask extends DomainCommand<{ userId: string; agentId: string; taskId: string }, A2aTaskOutcome> {}
