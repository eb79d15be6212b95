import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { TAKEN_MESSAGES } from '../../../aggregates/accounts/claim';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { CommandExecutor } from '../../common/command-executor';
import { AccountsQueries } from '../accounts.queries';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenService } from '../auth/token.service';
import { Claims } from '../claims';
import { RegisterUser, type Session } from './commands';
import { Sessions } from './sessions';

/**
 * Claims the username, then the e-mail (releasing the username if the e-mail
 * is taken), then writes the user stream. Usernames listed in SVC_ADMIN_USERS
 * register as admins.
 */
@CommandHandler(RegisterUser)
export class RegisterUserHandler implements ICommandHandler<RegisterUser> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly claims: Claims,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ input, context }: RegisterUser): Promise<Session> {
    // Fast refusal without paying for a password hash; the claim below is the real check.
    if (await this.queries.userByUsername(input.username)) throw new DomainError('conflict', TAKEN_MESSAGES.username);
    const passwordHash = await this.hasher.hash(input.password);
    const userId = randomUUID();
    const ctx = { ...context, actor: userId };
    await this.claims.claim('username', input.username, userId, ctx);
    try {
      await this.claims.claim('email', input.email, userId, ctx);
    } catch (error) {
      await this.claims.release('username', input.username, userId, ctx);
      throw error;
    }
    const key = input.username.toLowerCase();
    await this.executor.execute(
      userDecider,
      userStreamId(userId),
      {
        kind: 'register',
        registration: {
          user_id: userId,
          username: input.username,
          email: input.email.trim().toLowerCase(),
          display_name: input.displayName?.trim() || input.username,
          role: this.config.adminUsernames.includes(key) ? 'admin' : 'user',
          user_type: 'human',
          password_hash: passwordHash,
        },
      },
      ctx,
    );
    return this.sessions.issue(userId, this.tokens.newTokenId());
  }
}
