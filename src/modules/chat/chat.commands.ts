/** Commands of the chat context, dispatched on the @nestjs/cqrs CommandBus. */
import type { ConversationCommand } from '../../aggregates/chat/conversation';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';
import type { ChatReply, ChatRequest, VisualReply, VisualRequest } from './chat-pipeline';

/** POST /chat: one prompt through the pipeline (the gate, then its mode). */
export class RunPrompt extends DomainCommand<ChatRequest, ChatReply> {}

/** POST /visual_agent: a prompt about an image. */
export class AskAboutImage extends DomainCommand<VisualRequest, VisualReply> {}

export interface HistoryReceipt {
  prompt_id: string;
  appended: number;
  messages: number;
}

/** POST /add_history: messages a client had elsewhere join the conversation's context (redacted like prompts). */
export class AppendHistory extends DomainCommand<CommandInput<ConversationCommand, 'appendHistory'> & { userId: string; promptId: string }, HistoryReceipt> {}

/**
 * The answer of a speculative expert run (or any background run) lands in the
 * conversation as a response of stage `expert`. Idempotent on `runId`: a
 * redelivered result records nothing new.
 */
export class RecordExpertAnswer extends DomainCommand<
  Omit<CommandInput<ConversationCommand, 'answerExpertRun'>, 'promptTokens' | 'completionTokens'>,
  { recorded: boolean }
> {}
