/**
 * Claims on unique values (username, e-mail, device) for the accounts module.
 * A claim whose owner never finished registering (crash between the claim and
 * the user stream) is taken over once it is older than the abandon delay, so
 * a crash can never lock a username forever.
 */
import { Injectable } from '@nestjs/common';
import {
  claimDecider,
  claimStreamId,
  type ClaimScope,
} from '../../aggregates/accounts/claim';
import { DomainError } from '../../aggregates/shared/domain-error';
import { userStreamId } from '../../aggregates/accounts/user.events';
import { Clock } from '../../infrastructure/clock';
import { CommandExecutor, type CommandContext } from '../common/command-executor';

const ABANDONED_AFTER_MS = 60_000;

@Injectable()
export class Claims {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly clock: Clock,
  ) {}

  async claim(scope: ClaimScope, value: string, ownerId: string, context: CommandContext): Promise<void> {
    const decider = claimDecider(scope);
    const streamId = claimStreamId(scope, value);
    try {
      await this.executor.execute(decider, streamId, { kind: 'claim', value, ownerId }, context, { readYourWrites: false });
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      const { state } = await this.executor.load(decider, streamId);
      if (!state.owner || !(await this.isAbandoned(state.owner, state.claimedAt))) throw error;
      await this.executor.execute(
        decider,
        streamId,
        { kind: 'claim', value, ownerId, takeOverAbandonedFrom: state.owner },
        context,
        { readYourWrites: false },
      );
    }
  }

  async release(scope: ClaimScope, value: string, ownerId: string, context: CommandContext): Promise<void> {
    await this.executor.execute(claimDecider(scope), claimStreamId(scope, value), { kind: 'release', value, ownerId }, context, {
      readYourWrites: false,
    });
  }

  /** The user who holds the value, if that user's account exists. */
  async ownerOf(scope: ClaimScope, value: string): Promise<string | null> {
    const { state } = await this.executor.load(claimDecider(scope), claimStreamId(scope, value));
    if (!state.owner) return null;
    return (await this.userExists(state.owner)) ? state.owner : null;
  }

  private async isAbandoned(owner: string, claimedAt: string | null): Promise<boolean> {
    const age = this.clock.now().getTime() - new Date(claimedAt ?? 0).getTime();
    return age > ABANDONED_AFTER_MS && !(await this.userExists(owner));
  }

  private async userExists(userId: string): Promise<boolean> {
    return (await this.executor.load({ initialState: false, evolve: () => true, decide: () => [] }, userStreamId(userId))).state;
  }
}
