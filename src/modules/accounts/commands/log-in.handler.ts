import { UnauthorizedException } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { INVALID_CREDENTIALS, userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { CommandExecutor } from '../../common/command-executor';
import { AccountsQueries } from '../accounts.queries';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenService } from '../auth/token.service';
import { LogIn, type Session } from './commands';
import { Sessions } from './sessions';

/**
 * Verifies the password against the user stream (the source of truth, never a
 * read model), records the attempt (UserLoggedIn or UserLoginFailed, for the
 * audit trail) and answers one 401 text for unknown users and wrong passwords.
 */
@CommandHandler(LogIn)
export class LogInHandler implements ICommandHandler<LogIn> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ username, password, context }: LogIn): Promise<Session> {
    const doc = await this.queries.userByUsername(username);
    const { state } = doc
      ? await this.executor.load(userDecider, userStreamId(doc.id))
      : { state: userDecider.initialState };
    const verified = await this.hasher.verify(state.passwordHash, password);
    if (!doc || !state.passwordHash) throw new UnauthorizedException(INVALID_CREDENTIALS);
    const tokenId = this.tokens.newTokenId();
    await this.executor.execute(
      userDecider,
      userStreamId(doc.id),
      { kind: 'recordLogin', tokenId, method: 'password', passwordVerified: verified },
      { ...context, actor: doc.id },
    );
    if (!verified) throw new UnauthorizedException(INVALID_CREDENTIALS);
    return this.sessions.issue(doc.id, tokenId);
  }
}
