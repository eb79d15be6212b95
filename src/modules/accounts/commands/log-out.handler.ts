import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { CommandExecutor } from '../../common/command-executor';
import { LogOut } from './commands';

/** Revokes the presented JWT until it expires; the next request with it gets 401. */
@CommandHandler(LogOut)
export class LogOutHandler implements ICommandHandler<LogOut> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ user, context }: LogOut): Promise<void> {
    await this.executor.execute(
      userDecider,
      userStreamId(user.id),
      { kind: 'revokeToken', tokenId: user.tokenId!, expiresAt: user.tokenExpiresAt! },
      context,
    );
  }
}
