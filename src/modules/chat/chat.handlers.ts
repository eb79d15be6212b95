/** Handlers of the chat context's commands. */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conversationStreamId } from '../../aggregates/chat/chat.events';
import { conversationDecider } from '../../aggregates/chat/conversation';
import { CommandExecutor } from '../common/command-executor';
import type { ChatReply, VisualReply } from './chat-pipeline';
import { DefaultChatPipeline } from './chat-pipeline.service';
import { AppendHistory, AskAboutImage, type HistoryReceipt, RecordExpertAnswer, RunPrompt } from './chat.commands';
import { redactSecrets } from './gate/secret-redaction';

@CommandHandler(RunPrompt)
export class RunPromptHandler implements ICommandHandler<RunPrompt> {
  constructor(private readonly pipeline: DefaultChatPipeline) {}

  execute({ payload, context }: RunPrompt): Promise<ChatReply> {
    return this.pipeline.run(payload, context);
  }
}

@CommandHandler(AskAboutImage)
export class AskAboutImageHandler implements ICommandHandler<AskAboutImage> {
  constructor(private readonly pipeline: DefaultChatPipeline) {}

  execute({ payload, context }: AskAboutImage): Promise<VisualReply> {
    return this.pipeline.visual(payload, context);
  }
}

/** History joins the conversation's context redacted, as a prompt would be stored. */
@CommandHandler(AppendHistory)
export class AppendHistoryHandler implements ICommandHandler<AppendHistory> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, promptId, messages }, context }: AppendHistory): Promise<HistoryReceipt> {
    const redacted = messages.map((m) => ({ role: m.role, content: redactSecrets(m.content).text }));
    const { state } = await this.executor.execute(conversationDecider, conversationStreamId(userId, promptId), { kind: 'appendHistory', messages: redacted }, context);
    return { prompt_id: promptId, appended: redacted.length, messages: state.messageCount };
  }
}

/** A speculative expert run's answer joins its conversation once (idempotent on the run id). */
@CommandHandler(RecordExpertAnswer)
export class RecordExpertAnswerHandler implements ICommandHandler<RecordExpertAnswer> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordExpertAnswer): Promise<{ recorded: boolean }> {
    const { events } = await this.executor.execute(
      conversationDecider,
      conversationStreamId(payload.userId, payload.promptId),
      { kind: 'answerExpertRun', ...payload, promptTokens: 0, completionTokens: 0 },
      context,
      // a bus listener, not a REST client: nobody reads right after this write
      { maxRetries: 10, readYourWrites: false },
    );
    return { recorded: events.length > 0 };
  }
}
