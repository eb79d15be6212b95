/** Commands of the integrity context, dispatched on the @nestjs/cqrs CommandBus. */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { IntegrityChallengeCommand } from '../../aggregates/integrity/integrity-challenge';
import type { IntegrityChallengeDoc } from '../../projections/integrity/integrity-challenges.projection';
import { DomainCommand } from '../common/domain-command';

/** The challenge record of social-routes §20. */
export type ChallengeRecord = Omit<IntegrityChallengeDoc, '_id' | 'issued_by'> & { id: string };

/** Issues a challenge to another node (an admin's); the id and, unless given, the nonce are drawn here. */
export class IssueIntegrityChallenge extends DomainCommand<
  Omit<CommandInput<IntegrityChallengeCommand, 'issue'>, 'challengeId' | 'nonce'> & { nonce?: string },
  ChallengeRecord
> {}

/** Evaluates a node's signed response to one of this node's challenges. */
export class EvaluateChallengeResponse extends DomainCommand<
  { challengeId: string; respondingNodeId: string; response: Record<string, unknown>; signature: string },
  { passed: boolean; details: string }
> {}
