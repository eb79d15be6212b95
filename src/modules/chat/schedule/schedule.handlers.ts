/**
 * Scheduling a prompt (`POST /time_agent`). Before anything is stored, the
 * same checks as /chat, in the same order: the guardrail (a block is recorded
 * in the conversation without the prompt's text, and answered 403 with the
 * reason) and secret redaction (the redacted prompt is the only one stored).
 * The budget applies when the prompt runs, in the pipeline. The schedule is
 * recorded on a fresh `scheduledPrompt-<id>` stream.
 */
import { randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { scheduledPromptDecider, scheduledPromptStreamId } from '../../../aggregates/chat/scheduled-prompt';
import { leftIn } from '../../../aggregates/shared/decider';
import { CommandExecutor } from '../../common/command-executor';
import { ChatGate } from '../gate/chat-gate';
import { SchedulePrompt, type ScheduleReceipt } from './schedule.commands';

/** A new schedule id: also the message id of the prompt's run in the conversation. */
function newScheduleId(): string {
  return `sched-${randomUUID()}`;
}

@CommandHandler(SchedulePrompt)
export class SchedulePromptHandler implements ICommandHandler<SchedulePrompt> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly gate: ChatGate,
  ) {}

  async execute({ payload, context }: SchedulePrompt): Promise<ScheduleReceipt> {
    const scheduleId = newScheduleId();
    const { prompt, redactions } = await this.gate.guard({ ...payload, messageId: scheduleId }, context);
    const { state } = await this.executor.execute(
      scheduledPromptDecider,
      scheduledPromptStreamId(scheduleId),
      { kind: 'schedule', scheduleId, userId: payload.userId, promptId: payload.promptId, prompt, redactions, runAt: payload.runAt },
      context,
    );
    const scheduled = leftIn(state, 'pending');
    return { schedule_id: scheduleId, user_id: scheduled.userId, prompt_id: scheduled.promptId, run_at: scheduled.runAt, status: 'scheduled' };
  }
}
