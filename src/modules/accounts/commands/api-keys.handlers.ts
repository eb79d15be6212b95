import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { apiKeyDecider, apiKeyStreamId, DAILY_LIMITS } from '../../../aggregates/accounts/api-key';
import { CommandExecutor } from '../../common/command-executor';
import { newApiKey, sha256 } from '../auth/api-key-authenticator';
import { IssueApiKey, type IssuedApiKey, RevokeApiKey } from './commands';

/** Issues a key: the full key is in this reply only; the store keeps its hash. */
@CommandHandler(IssueApiKey)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ userId, name, tier, context }: IssueApiKey): Promise<IssuedApiKey> {
    const { keyId, secret, key } = newApiKey();
    const { events } = await this.executor.execute(
      apiKeyDecider,
      apiKeyStreamId(keyId),
      { kind: 'issue', keyId, userId, name: name.trim(), tier, secretSha256: sha256(secret) },
      context,
    );
    const [issued] = events as Extract<(typeof events)[number], { type: 'ApiKeyIssued' }>[];
    return {
      id: keyId,
      name: issued.data.name,
      tier,
      key,
      api_key: key,
      daily_limit: DAILY_LIMITS[tier],
      created_at: issued.data.issued_at,
    };
  }
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ userId, keyId, context }: RevokeApiKey): Promise<void> {
    await this.executor.execute(apiKeyDecider, apiKeyStreamId(keyId), { kind: 'revoke', requestedBy: userId }, context);
  }
}
