/**
 * The one shape of a command on the @nestjs/cqrs CommandBus: a typed payload
 * (written from the decider's command, see `CommandInput`) and the context
 * that becomes the events' metadata. No positional arguments, so two
 * adjacent strings can never be swapped at a call site.
 *
 *   export class AcceptGoal extends DomainCommand<CommandInput<GoalCommand, 'accept'>, AcceptedGoal> {}
 *   commandBus.execute(new AcceptGoal({ goalId, description, ... }, context));
 */
import { Command } from '@nestjs/cqrs';
import type { CommandContext } from './command-executor';

export abstract class DomainCommand<Payload, Result = void> extends Command<Result> {
  constructor(
    readonly payload: Payload,
    readonly context: CommandContext,
  ) {
    super();
  }
}
