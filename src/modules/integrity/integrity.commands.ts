/** Commands of the integrity context, dispatched on the @nestjs/cqrs CommandBus. */
import type { AlertStatus, NodeStandingCommand } from '../../aggregates/integrity/node-standing';
import type { IntegrityChallengeDoc } from '../../projections/integrity/integrity-challenges.projection';
import { DomainCommand } from '../common/domain-command';
import type { ChallengeType } from '../../aggregates/integrity/integrity-challenge';

/** The challenge record of social-routes §20. */
export type ChallengeRecord = Omit<IntegrityChallengeDoc, '_id' | 'issued_by'> & { id: string };

/** Whether the challenge reached its target and came back answered. */
export interface ChallengeDelivery {
  /** false: no URL is known for the target; the challenge waits for its answer at /integrity/challenge-response */
  attempted: boolean;
  delivered: boolean;
  error: string | null;
}

/** A challenge to put to a node. */
export interface ChallengeInput {
  targetNodeId: string;
  challengeType: ChallengeType;
  nonce?: string;
  issuedBy: string;
  /** the ad an impression_audit asks about (sent, not recorded) */
  adId?: string;
}

/** Issues a challenge to another node (an admin's) and sends it there when its URL is known (challenge-rounds.ts); the id and, unless given, the nonce are drawn here. */
export class IssueIntegrityChallenge extends DomainCommand<ChallengeInput, ChallengeRecord & { delivery: ChallengeDelivery }> {}

/** Evaluates a node's signed response to one of this node's challenges. */
export class EvaluateChallengeResponse extends DomainCommand<
  { challengeId: string; respondingNodeId: string; response: Record<string, unknown>; signature: string },
  { passed: boolean; details: string }
> {}

/** Bans another node or lifts its ban (an admin's); the reply says what the node's standing is now. */
type BanCommand = Extract<NodeStandingCommand, { kind: 'ban' | 'unban' }>;
export class ChangeNodeStanding extends DomainCommand<Omit<BanCommand, 'kind'> & { action: BanCommand['kind'] }, { banned: boolean }> {}

/** An alert as GET /integrity/alerts lists it (social-routes §20). */
export interface AlertRecord {
  id: string;
  node_id: string;
  alert_type: string;
  severity: string;
  description: string;
  evidence: Record<string, unknown>;
  fraud_score_delta: number;
  status: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  created_at: string;
}

export interface AuditOutcome {
  node_id: string;
  fraud_score: number;
  fraud_score_before: number;
  decay: number;
  banned: boolean;
  alerts: AlertRecord[];
  audited_at: string;
}

/** An admin runs one audit round against a node (findings from this node's records; §20's decay and ban rule in the decider). */
export class AuditNode extends DomainCommand<{ nodeId: string; by: string }, AuditOutcome> {}

/** An admin reviews an alert (a new status). */
export class ReviewIntegrityAlert extends DomainCommand<{ alertId: string; status: AlertStatus; by: string }, AlertRecord> {}

/** A node registers with this registry (signed by the key it registers). */
export class RegisterRegistryNode extends DomainCommand<{ nodeId: string; publicKey: string; codeHash: string | null; version: string | null }, { registered: boolean; code_hash_matches: boolean | null }> {}
