/** Commands of the chat context, dispatched on the @nestjs/cqrs CommandBus. */
import { Command } from '@nestjs/cqrs';
import type { CommandContext } from '../common/command-executor';

/**
 * The answer of a speculative expert run (or any background run) lands in the
 * conversation as a response of stage `expert`. Idempotent on `runId`: a
 * redelivered result records nothing new.
 */
export class RecordExpertAnswer extends Command<{ recorded: boolean }> {
  constructor(
    readonly userId: string,
    readonly promptId: string,
    readonly runId: string,
    readonly response: string,
    readonly model: string,
    readonly source: 'model' | 'offline',
    readonly context: CommandContext,
  ) {
    super();
  }
}
