/**
 * Scheduling a prompt: the command of `POST /time_agent` and its handler.
 * Before anything is stored, the same checks as /chat, in the same order:
 * the guardrail (a block is recorded in the conversation without the prompt's
 * text, and answered 403 with the reason) and secret redaction (the redacted
 * prompt is the only one stored). The budget gate applies when the prompt
 * runs, in the pipeline. The schedule is recorded on a fresh
 * `scheduledPrompt-<id>` stream.
 */
import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { conversationStreamId } from '../../../aggregates/chat/chat.events';
import { conversationDecider } from '../../../aggregates/chat/conversation';
import { scheduledPromptDecider, scheduledPromptStreamId } from '../../../aggregates/chat/scheduled-prompt';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import { checkGuardrail } from '../guards/guardrail';
import { redactSecrets } from '../guards/secret-redaction';

export interface ScheduleReceipt {
  schedule_id: string;
  user_id: string;
  prompt_id: string;
  run_at: string;
  status: 'scheduled';
}

export class SchedulePrompt extends Command<ScheduleReceipt> {
  constructor(
    /** `prompt` as the client sent it: guarded and redacted by the handler */
    readonly input: { userId: string; promptId: string; prompt: string; runAt: Date },
    readonly context: CommandContext,
  ) {
    super();
  }
}

/** A new schedule id: also the message id of the prompt's run in the conversation. */
export function newScheduleId(): string {
  return `sched-${randomUUID()}`;
}

@CommandHandler(SchedulePrompt)
export class SchedulePromptHandler implements ICommandHandler<SchedulePrompt> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ input, context }: SchedulePrompt): Promise<ScheduleReceipt> {
    const scheduleId = newScheduleId();
    const verdict = checkGuardrail(input.prompt);
    if (!verdict.allowed) {
      await this.executor.execute(
        conversationDecider,
        conversationStreamId(input.userId, input.promptId),
        { kind: 'block', messageId: scheduleId, userId: input.userId, promptId: input.promptId, category: verdict.category },
        context,
      );
      throw new DomainError('forbidden', verdict.reason, { details: { category: verdict.category } });
    }
    const { text: prompt, redactions } = redactSecrets(input.prompt);
    const { state } = await this.executor.execute(
      scheduledPromptDecider,
      scheduledPromptStreamId(scheduleId),
      { kind: 'schedule', scheduleId, userId: input.userId, promptId: input.promptId, prompt, redactions, runAt: input.runAt },
      context,
    );
    return { schedule_id: scheduleId, user_id: state.userId!, prompt_id: state.promptId!, run_at: state.runAt!, status: 'scheduled' };
  }
}
