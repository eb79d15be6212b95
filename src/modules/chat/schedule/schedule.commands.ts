/** Commands of `/time_agent`, dispatched on the @nestjs/cqrs CommandBus. */
import type { ScheduledPromptCommand } from '../../../aggregates/chat/scheduled-prompt';
import type { CommandInput } from '../../../aggregates/shared/decider';
import { DomainCommand } from '../../common/domain-command';

export interface ScheduleReceipt {
  schedule_id: string;
  user_id: string;
  prompt_id: string;
  run_at: string;
  status: 'scheduled';
}

/**
 * A prompt to run at `runAt`. `prompt` is as the client sent it: the handler
 * guards and redacts it before the decider's `schedule` command is made.
 */
export class SchedulePrompt extends DomainCommand<Pick<CommandInput<ScheduledPromptCommand, 'schedule'>, 'userId' | 'promptId' | 'prompt' | 'runAt'>, ScheduleReceipt> {}
