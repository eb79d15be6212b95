import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conversationStreamId } from '../../aggregates/chat/chat.events';
import { conversationDecider } from '../../aggregates/chat/conversation';
import { CommandExecutor } from '../common/command-executor';
import { RecordExpertAnswer } from './chat.commands';

/** A speculative expert run's answer joins its conversation once (idempotent on the run id). */
@CommandHandler(RecordExpertAnswer)
export class RecordExpertAnswerHandler implements ICommandHandler<RecordExpertAnswer> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute(c: RecordExpertAnswer): Promise<{ recorded: boolean }> {
    const { events } = await this.executor.execute(
      conversationDecider,
      conversationStreamId(c.userId, c.promptId),
      {
        kind: 'answerExpertRun',
        runId: c.runId,
        userId: c.userId,
        promptId: c.promptId,
        response: c.response,
        model: c.model,
        source: c.source,
        promptTokens: 0,
        completionTokens: 0,
      },
      c.context,
      // a bus listener, not a REST client: nobody reads right after this write
      { maxRetries: 10, readYourWrites: false },
    );
    return { recorded: events.length > 0 };
  }
}
