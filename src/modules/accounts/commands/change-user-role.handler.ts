import { NotFoundException } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { CommandExecutor } from '../../common/command-executor';
import { AccountsQueries } from '../accounts.queries';
import { toUserView, type UserView } from '../user-view';
import { ChangeUserRole } from './commands';

/** An admin grants or withdraws a role; the change is recorded with the admin's id. */
@CommandHandler(ChangeUserRole)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRole> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
  ) {}

  async execute({ userId, role, context }: ChangeUserRole): Promise<UserView> {
    if (!(await this.queries.userById(userId))) throw new NotFoundException('user not found');
    await this.executor.execute(
      userDecider,
      userStreamId(userId),
      { kind: 'changeRole', role, changedBy: context.actor },
      context,
    );
    const doc = await this.queries.userById(userId);
    return toUserView(doc!, false);
  }
}
