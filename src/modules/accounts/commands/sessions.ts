/** Opens a session for a user: records the login and issues the matching token. */
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import { userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { Clock } from '../../../infrastructure/clock';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import { AccountsQueries } from '../accounts.queries';
import { TokenService } from '../auth/token.service';
import { toUserView } from '../user-view';
import type { Session } from './commands';

@Injectable()
export class Sessions {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
  ) {}

  /** Records a login by device or password (already verified) and returns the session. */
  async open(userId: string, method: 'password' | 'device', context: CommandContext): Promise<Session> {
    const tokenId = this.tokens.newTokenId();
    await this.executor.execute(
      userDecider,
      userStreamId(userId),
      { kind: 'recordLogin', tokenId, method, passwordVerified: true },
      { ...context, actor: userId },
    );
    return this.issue(userId, tokenId);
  }

  /** The token for an already-recorded login or registration, with the user as the read model now shows it. */
  async issue(userId: string, tokenId: string): Promise<Session> {
    const doc = await this.queries.userById(userId);
    // Only when the read model lagged past READ_YOUR_WRITES_TIMEOUT_MS: the write is safe, the read is not ready.
    if (!doc) throw new ServiceUnavailableException('account is being set up, retry shortly');
    const { token } = this.tokens.issue(doc, tokenId, this.clock.now());
    return { user: toUserView(doc, true), token };
  }
}
