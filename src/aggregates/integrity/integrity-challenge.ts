/**
 * An integrity challenge this node sent to another (social-routes §20),
 * stream `integrityChallenge-<id>`: issued to one target node with a type
 * and a nonce, then evaluated once, when the target's signed response comes
 * back. A response passes when it comes from the target, echoes the nonce
 * and carries a valid signature of the target's key (checked by the
 * handler, which holds the keys); a failed evaluation is recorded too: it is
 * the audit's evidence. An unknown challenge or one already evaluated
 * records nothing.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export const CHALLENGE_TYPES = ['agent_count_verify', 'stats_probe', 'code_hash_check', 'guardrail_verify', 'impression_audit'] as const;
export type ChallengeType = (typeof CHALLENGE_TYPES)[number];

export type IntegrityChallengeIssued = DomainEvent<
  'IntegrityChallengeIssued',
  {
    challenge_id: string;
    challenger_node_id: string;
    target_node_id: string;
    challenge_type: ChallengeType;
    challenge_nonce: string;
    issued_by: string;
    issued_at: string;
  }
>;
export type IntegrityChallengeEvaluated = DomainEvent<
  'IntegrityChallengeEvaluated',
  {
    challenge_id: string;
    responding_node_id: string;
    passed: boolean;
    details: string;
    /** the signed response as received */
    response: Record<string, unknown>;
    evaluated_at: string;
  }
>;

export type IntegrityChallengeEvent = IntegrityChallengeIssued | IntegrityChallengeEvaluated;

export const integrityChallengeStreamId = (challengeId: string): string => `integrityChallenge-${challengeId}`;

interface Issued {
  challengeId: string;
  targetNodeId: string;
  nonce: string;
}

export type IntegrityChallengeState = { status: 'none' } | ({ status: 'pending' } & Issued) | ({ status: 'evaluated'; passed: boolean } & Issued);

export type IntegrityChallengeCommand =
  | { kind: 'issue'; challengeId: string; challengerNodeId: string; targetNodeId: string; challengeType: ChallengeType; nonce: string; issuedBy: string }
  | { kind: 'evaluate'; respondingNodeId: string; response: Record<string, unknown>; signatureValid: boolean };

export const UNKNOWN_CHALLENGE = 'Unknown challenge';
export const ALREADY_PROCESSED = 'Challenge already processed';

/** Why a response fails, or null when it passes; the checks in the order they are made. */
function failureOf(state: Issued, command: Extract<IntegrityChallengeCommand, { kind: 'evaluate' }>): string | null {
  if (command.respondingNodeId !== state.targetNodeId) return `response from ${command.respondingNodeId}, but the challenge went to ${state.targetNodeId}`;
  if (command.response.nonce !== state.nonce) return 'nonce mismatch';
  if (!command.signatureValid) return 'signature mismatch';
  return null;
}

export const integrityChallengeDecider: Decider<IntegrityChallengeState, IntegrityChallengeCommand, IntegrityChallengeEvent> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'IntegrityChallengeIssued':
        return { status: 'pending', challengeId: event.data.challenge_id, targetNodeId: event.data.target_node_id, nonce: event.data.challenge_nonce };
      case 'IntegrityChallengeEvaluated':
        return state.status === 'none' ? state : { ...state, status: 'evaluated', passed: event.data.passed };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'issue':
        if (state.status !== 'none') throw new DomainError('conflict', 'Challenge already exists');
        return [
          {
            type: 'IntegrityChallengeIssued',
            data: {
              challenge_id: command.challengeId,
              challenger_node_id: command.challengerNodeId,
              target_node_id: command.targetNodeId,
              challenge_type: command.challengeType,
              challenge_nonce: command.nonce,
              issued_by: command.issuedBy,
              issued_at: now.toISOString(),
            },
          },
        ];
      case 'evaluate': {
        if (state.status === 'none') throw new DomainError('not_found', UNKNOWN_CHALLENGE);
        if (state.status === 'evaluated') throw new DomainError('conflict', ALREADY_PROCESSED);
        const failure = failureOf(state, command);
        return [
          {
            type: 'IntegrityChallengeEvaluated',
            data: {
              challenge_id: state.challengeId,
              responding_node_id: command.respondingNodeId,
              passed: failure === null,
              details: failure ?? 'nonce and signature verified',
              response: command.response,
              evaluated_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
