import { randomBytes, randomUUID } from 'node:crypto';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../../aggregates/shared/domain-error';
import { userDecider } from '../../../aggregates/accounts/user';
import { userStreamId } from '../../../aggregates/accounts/user.events';
import { CommandExecutor, type CommandContext } from '../../common/command-executor';
import { newRecoveryCode, normaliseRecoveryCode } from '../auth/recovery-codes';
import { ServiceSecrets } from '../auth/secrets';
import { TokenService } from '../auth/token.service';
import { Claims } from '../claims';
import { type GuestSession, RegisterGuest } from './commands';
import { Sessions } from './sessions';

const USERNAME_ATTEMPTS = 5;

/** `guest_` + the name (lower-cased, spaces to `_`, other characters dropped) + `_` + 6 hex characters. */
function guestUsername(guestName: string): string {
  const base = guestName.trim().toLowerCase().replace(/\s+/g, '_').replace(/[^a-z0-9_.-]/g, '').slice(0, 36) || 'guest';
  return `guest_${base}_${randomBytes(3).toString('hex')}`;
}

/**
 * A guest account without e-mail or password. A device id already on file
 * returns that guest with a fresh token (200, `existing: true`); the device
 * claim makes two concurrent first visits of one device end in one account.
 */
@CommandHandler(RegisterGuest)
export class RegisterGuestHandler implements ICommandHandler<RegisterGuest> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
    private readonly secrets: ServiceSecrets,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ guestName, deviceId, context }: RegisterGuest): Promise<GuestSession> {
    if (deviceId) {
      const owner = await this.claims.ownerOf('device', deviceId);
      if (owner) return this.existing(owner, context);
    }
    const userId = randomUUID();
    const ctx = { ...context, actor: userId };
    const username = await this.claimUsername(guestName, userId, ctx);
    if (deviceId) {
      try {
        await this.claims.claim('device', deviceId, userId, ctx);
      } catch (error) {
        await this.claims.release('username', username, userId, ctx);
        const owner = error instanceof DomainError ? await this.claims.ownerOf('device', deviceId) : null;
        if (owner) return this.existing(owner, context);
        throw error;
      }
    }
    const recoveryCode = newRecoveryCode();
    await this.executor.execute(
      userDecider,
      userStreamId(userId),
      {
        kind: 'registerGuest',
        registration: {
          user_id: userId,
          username,
          display_name: guestName.trim(),
          recovery_code_hash: this.secrets.lookupHash('recovery', normaliseRecoveryCode(recoveryCode)),
          device_id: deviceId,
        },
      },
      ctx,
    );
    const session = await this.sessions.issue(userId, this.tokens.newTokenId());
    return { ...session, recovery_code: recoveryCode, existing: false };
  }

  private async existing(userId: string, context: CommandContext): Promise<GuestSession> {
    const session = await this.sessions.open(userId, 'device', context);
    return { ...session, recovery_code: null, existing: true };
  }

  private async claimUsername(guestName: string, userId: string, context: CommandContext): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const username = guestUsername(guestName);
      try {
        await this.claims.claim('username', username, userId, context);
        return username;
      } catch (error) {
        if (!(error instanceof DomainError) || attempt >= USERNAME_ATTEMPTS) throw error;
      }
    }
  }
}
