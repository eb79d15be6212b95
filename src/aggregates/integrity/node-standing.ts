/**
 * Another node's standing with this node (social-routes §20: bans and a
 * fraud score), stream `nodeStanding-<nodeId>`.
 *
 * - An admin bans a node (its fraud score becomes 100) or lifts the ban
 *   (score 0). A banned node's signed requests are refused
 *   (modules/integrity/node-signature.guard.ts). Banning a banned node or
 *   lifting a ban that is not there records nothing.
 * - An audit round (`audit`): the score first decays by 2 points
 *   (FRAUD_DECAY_PER_ROUND, never below 0), then every finding not counted
 *   before raises an alert that adds its delta (the score is capped at 100).
 *   A finding is counted once (its `key`, e.g. the failed challenge's id), so
 *   auditing twice does not charge one failure twice. When the score reaches
 *   80 (FRAUD_BAN_THRESHOLD) the node is banned in the same round.
 * - An admin reviews an alert (`review`): its status changes; the score does
 *   not (a dismissed alert is a note for the record, not a refund).
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

/** §20: a ban by hand sets the score to 100. */
export const BAN_FRAUD_SCORE = 100;
/** §20: a score of 80 bans a node. */
export const FRAUD_BAN_THRESHOLD = 80;
/** §20: the score decays by 2 points per audit round. */
export const FRAUD_DECAY_PER_ROUND = 2;
export const MAX_FRAUD_SCORE = 100;
/** who bans a node whose score reached the threshold */
export const FRAUD_SCORE_BANNER = 'system:fraud-score';

export const ALERT_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];
export const ALERT_STATUSES = ['open', 'investigating', 'confirmed', 'dismissed', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export type NodeBanned = DomainEvent<'NodeBanned', { node_id: string; reason: string; banned_by: string; fraud_score: number; banned_at: string }>;
export type NodeUnbanned = DomainEvent<'NodeUnbanned', { node_id: string; reason: string; unbanned_by: string; fraud_score: number; unbanned_at: string }>;
export type NodeAudited = DomainEvent<
  'NodeAudited',
  { node_id: string; audited_by: string; findings: number; fraud_score_before: number; decay: number; fraud_score: number; audited_at: string }
>;
export type IntegrityAlertRaised = DomainEvent<
  'IntegrityAlertRaised',
  {
    alert_id: string;
    node_id: string;
    alert_type: string;
    severity: AlertSeverity;
    description: string;
    evidence: Record<string, unknown>;
    /** what the finding counted once by (a challenge id, a code hash) */
    finding_key: string;
    fraud_score_delta: number;
    /** the node's score once this alert counted */
    fraud_score: number;
    raised_at: string;
  }
>;
export type IntegrityAlertReviewed = DomainEvent<
  'IntegrityAlertReviewed',
  { alert_id: string; node_id: string; status: AlertStatus; reviewed_by: string; reviewed_at: string }
>;
export type NodeStandingEvent = NodeBanned | NodeUnbanned | NodeAudited | IntegrityAlertRaised | IntegrityAlertReviewed;

export const nodeStandingStreamId = (nodeId: string): string => `nodeStanding-${nodeId}`;

export interface NodeStandingState {
  banned: boolean;
  fraudScore: number;
  /** alert id → status */
  alerts: Record<string, AlertStatus>;
  /** the finding keys already counted */
  counted: string[];
}

/** What an audit found against a node; `key` makes it count once. */
export interface AuditFinding {
  key: string;
  alertType: string;
  severity: AlertSeverity;
  description: string;
  evidence: Record<string, unknown>;
  fraudScoreDelta: number;
}

export type NodeStandingCommand =
  | { kind: 'ban' | 'unban'; nodeId: string; reason: string; by: string }
  | { kind: 'audit'; nodeId: string; by: string; findings: AuditFinding[]; /** one id per finding, drawn by the caller */ alertIds: string[] }
  | { kind: 'review'; nodeId: string; alertId: string; status: AlertStatus; by: string };

export const ALERT_NOT_FOUND = 'Alert not found';

/** §20: the score after one round's decay. */
export const decayed = (score: number): number => Math.max(0, score - FRAUD_DECAY_PER_ROUND);

export const nodeStandingDecider: Decider<NodeStandingState, NodeStandingCommand, NodeStandingEvent> = {
  initialState: { banned: false, fraudScore: 0, alerts: {}, counted: [] },
  evolve(state, event) {
    switch (event.type) {
      case 'NodeBanned':
        return { ...state, banned: true, fraudScore: event.data.fraud_score };
      case 'NodeUnbanned':
        return { ...state, banned: false, fraudScore: event.data.fraud_score };
      case 'NodeAudited':
        return { ...state, fraudScore: event.data.fraud_score };
      case 'IntegrityAlertRaised':
        return {
          ...state,
          fraudScore: event.data.fraud_score,
          alerts: { ...state.alerts, [event.data.alert_id]: 'open' },
          counted: [...state.counted, event.data.finding_key],
        };
      case 'IntegrityAlertReviewed':
        return { ...state, alerts: { ...state.alerts, [event.data.alert_id]: event.data.status } };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const at = now.toISOString();
    switch (command.kind) {
      case 'ban':
        return state.banned
          ? []
          : [{ type: 'NodeBanned', data: { node_id: command.nodeId, reason: command.reason, banned_by: command.by, fraud_score: BAN_FRAUD_SCORE, banned_at: at } }];
      case 'unban':
        return state.banned ? [{ type: 'NodeUnbanned', data: { node_id: command.nodeId, reason: command.reason, unbanned_by: command.by, fraud_score: 0, unbanned_at: at } }] : [];
      case 'audit':
        return audit(command, state, at);
      case 'review': {
        const current = state.alerts[command.alertId];
        if (current === undefined) throw new DomainError('not_found', ALERT_NOT_FOUND);
        if (current === command.status) return [];
        return [{ type: 'IntegrityAlertReviewed', data: { alert_id: command.alertId, node_id: command.nodeId, status: command.status, reviewed_by: command.by, reviewed_at: at } }];
      }
      default:
        return assertNever(command);
    }
  },
};

function audit(command: Extract<NodeStandingCommand, { kind: 'audit' }>, state: NodeStandingState, at: string): NodeStandingEvent[] {
  const seen = new Set(state.counted);
  const fresh = command.findings.filter((finding) => {
    if (seen.has(finding.key)) return false;
    seen.add(finding.key);
    return true;
  });
  if (command.alertIds.length < fresh.length) throw new Error('an alert id is needed for every finding');
  let score = decayed(state.fraudScore);
  const events: NodeStandingEvent[] = [
    {
      type: 'NodeAudited',
      data: {
        node_id: command.nodeId,
        audited_by: command.by,
        findings: fresh.length,
        fraud_score_before: state.fraudScore,
        decay: state.fraudScore - score,
        fraud_score: score,
        audited_at: at,
      },
    },
  ];
  fresh.forEach((finding, index) => {
    const delta = Math.max(0, Math.min(MAX_FRAUD_SCORE, Math.round(finding.fraudScoreDelta)));
    score = Math.min(MAX_FRAUD_SCORE, score + delta);
    events.push({
      type: 'IntegrityAlertRaised',
      data: {
        alert_id: command.alertIds[index],
        node_id: command.nodeId,
        alert_type: finding.alertType,
        severity: finding.severity,
        description: finding.description,
        evidence: finding.evidence,
        finding_key: finding.key,
        fraud_score_delta: delta,
        fraud_score: score,
        raised_at: at,
      },
    });
  });
  if (!state.banned && score >= FRAUD_BAN_THRESHOLD) {
    events.push({
      type: 'NodeBanned',
      data: { node_id: command.nodeId, reason: `fraud score ${score} reached ${FRAUD_BAN_THRESHOLD}`, banned_by: FRAUD_SCORE_BANNER, fraud_score: score, banned_at: at },
    });
  }
  return events;
}
