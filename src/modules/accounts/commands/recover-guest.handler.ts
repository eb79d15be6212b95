import { UnauthorizedException } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { INVALID_RECOVERY_CODE, userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { CommandExecutor } from '../../common/command-executor';
import { AccountsQueries } from '../accounts.queries';
import { newRecoveryCode, normaliseRecoveryCode } from '../auth/recovery-codes';
import { ServiceSecrets } from '../auth/secrets';
import { TokenService } from '../auth/token.service';
import { RecoverGuest, type Session } from './commands';
import { Sessions } from './sessions';

/**
 * Signs a guest back in with its recovery code. The code is one-time: the
 * user stream checks it and rotates it in one event, so two concurrent uses
 * of one code end in one success; the new code is returned.
 */
@CommandHandler(RecoverGuest)
export class RecoverGuestHandler implements ICommandHandler<RecoverGuest> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly secrets: ServiceSecrets,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ recoveryCode, deviceId, context }: RecoverGuest): Promise<Session & { recovery_code: string }> {
    const presented = this.secrets.lookupHash('recovery', normaliseRecoveryCode(recoveryCode));
    const doc = await this.queries.userByRecoveryHash(presented);
    if (!doc) throw new UnauthorizedException(INVALID_RECOVERY_CODE);
    const next = newRecoveryCode();
    const tokenId = this.tokens.newTokenId();
    await this.executor.execute(
      userDecider,
      userStreamId(doc.id),
      {
        kind: 'recoverGuest',
        presentedCodeHash: presented,
        newCodeHash: this.secrets.lookupHash('recovery', normaliseRecoveryCode(next)),
        tokenId,
        deviceId,
      },
      { ...context, actor: doc.id },
    );
    return { ...(await this.sessions.issue(doc.id, tokenId)), recovery_code: next };
  }
}
