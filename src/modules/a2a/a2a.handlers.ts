/**
 * Handlers of the A2A context. The executor of an agent is the /chat
 * pipeline: a message runs as a `RunPrompt` of the caller on the agent's
 * prompt id, so the gate (guardrail, redaction, budget) applies as on /chat
 * and the saved recipe is REUSEd. The task records each step on its stream.
 */
import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { a2aTaskDecider, type A2aTaskAggregate, type A2aTaskCommand, type A2aTaskEvent, a2aTaskStreamId } from '../../aggregates/a2a/a2a-task';
import { DomainError } from '../../aggregates/shared/domain-error';
import { Clock } from '../../infrastructure/clock';
import { LlmRequestError, LlmUnavailableError } from '../../infrastructure/llm/llm.port';
import { plainTurn } from '../chat/chat-pipeline';
import { RunPrompt } from '../chat/chat.commands';
import { CommandExecutor } from '../common/command-executor';
import { type A2aSendPayload, type A2aTaskOutcome, CancelA2aTask, SendA2aMessage } from './a2a.commands';

type Step = { state: A2aTaskAggregate; events: A2aTaskEvent[] };

function outcomeOf({ state, events }: Step, now: Date): A2aTaskOutcome {
  if (state.status === 'none') throw new Error('expected an A2A task, found none');
  let timestamp = now.toISOString();
  let content: string | null = null;
  let error: string | null = null;
  for (const event of events) {
    switch (event.type) {
      case 'A2aTaskSubmitted':
        timestamp = event.data.submitted_at;
        break;
      case 'A2aTaskStarted':
        timestamp = event.data.started_at;
        break;
      case 'A2aTaskCompleted':
        timestamp = event.data.completed_at;
        content = event.data.response;
        break;
      case 'A2aTaskFailed':
        timestamp = event.data.failed_at;
        error = event.data.error;
        break;
      case 'A2aTaskCanceled':
        timestamp = event.data.canceled_at;
        break;
    }
  }
  return { taskId: state.taskId, contextId: state.contextId, state: state.status, timestamp, content, error };
}

/** What a failed run tells the caller: the refusal's own text (budget, guardrail, model), never an internal error's. */
function reasonOf(error: unknown): string {
  if (error instanceof DomainError || error instanceof LlmUnavailableError || error instanceof LlmRequestError) return error.message;
  return 'internal error';
}

@CommandHandler(SendA2aMessage)
export class SendA2aMessageHandler implements ICommandHandler<SendA2aMessage> {
  private readonly logger = new Logger('A2A');

  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  async execute({ payload, context, progress }: SendA2aMessage): Promise<A2aTaskOutcome | null> {
    const stream = a2aTaskStreamId(payload.userId, payload.taskId);
    const step = async (command: A2aTaskCommand): Promise<A2aTaskOutcome> => {
      const outcome = outcomeOf(await this.executor.execute(a2aTaskDecider, stream, command, context), this.clock.now());
      progress?.(outcome);
      return outcome;
    };
    const submitted = await this.executor.execute(
      a2aTaskDecider,
      stream,
      { kind: 'submit', taskId: payload.taskId, contextId: payload.contextId, userId: payload.userId, agentId: payload.agentId, promptId: payload.promptId, textChars: payload.text.length },
      context,
    );
    if (submitted.events.length === 0) return null;
    progress?.(outcomeOf(submitted, this.clock.now()));
    await step({ kind: 'start' });
    try {
      const reply = await this.commands.execute(new RunPrompt(runOf(payload), context));
      return await step({ kind: 'complete', response: reply.response });
    } catch (error) {
      if (reasonOf(error) === 'internal error') this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      return step({ kind: 'fail', error: reasonOf(error) });
    }
  }
}

function runOf(payload: A2aSendPayload): RunPrompt['payload'] {
  // one turn per task: a retried run of the same task answers the first run's response
  return plainTurn({ userId: payload.userId, promptId: payload.promptId, prompt: payload.text, messageId: `a2a:${payload.taskId}`, origin: 'a2a' });
}

@CommandHandler(CancelA2aTask)
export class CancelA2aTaskHandler implements ICommandHandler<CancelA2aTask> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly clock: Clock,
  ) {}

  async execute({ payload, context }: CancelA2aTask): Promise<A2aTaskOutcome> {
    const stream = a2aTaskStreamId(payload.userId, payload.taskId);
    return outcomeOf(await this.executor.execute(a2aTaskDecider, stream, { kind: 'cancel', agentId: payload.agentId }, context), this.clock.now());
  }
}

