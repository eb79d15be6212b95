/**
 * Bodies and queries of the thought-experiment routes (social-routes §17),
 * read by hand in the contract's order of checks, each body with the JSON
 * Schema of what it accepts. The acting user's id fields (creator_id,
 * voter_id, user_id) are read here as given; which user acts is decided by
 * `actingUserId` (a token's user, or the body's id on a flat node only).
 */
import { DECISION_TYPES, EXPERIMENT_STATUSES, EXPERIMENT_TYPES, type ExperimentStatus, type ExperimentType, INTENT_CATEGORIES } from '../../aggregates/experiments/experiment';
import { type DecisionContext, isDecisionContext, type VoterType } from '../../aggregates/experiments/voting-rules';
import { DomainError } from '../../aggregates/shared/domain-error';
import type { NodeTier } from '../../config/node-tier';
import type { AuthUser } from '../accounts/auth/auth-user';
import { UNAUTHENTICATED } from '../accounts/auth/authenticated.guard';
import { type Body, flag, objectBody } from '../common/body-fields';

export const CREATE_REQUIRED = 'creator_id, title, and hypothesis required';
export const TITLE_MAX = 300;
export const TEXT_MAX = 10_000;
export const NOTE_MAX = 5_000;
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
const ID_RULE = 'must be 1-128 letters, digits, _ . : @ -';
const SPARK_MAX = 1_000_000_000;

const invalid = (message: string): DomainError => new DomainError('invalid', message);

const idSchema = { anyOf: [{ type: 'string', pattern: ID_PATTERN.source }, { type: 'null' }] };
const textSchema = (max: number) => ({ anyOf: [{ type: 'string', maxLength: max }, { type: 'null' }] });
const FLAG_SCHEMA = { enum: [true, false, 'true', 'false', null] };

/** An id field: absent or null → null; else 1-128 of `[A-Za-z0-9_.:@-]`, or 400. */
function idOf(body: Body, field: string): string | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !ID_PATTERN.test(value)) throw invalid(`${field} ${ID_RULE}`);
  return value;
}

/** An optional text: absent or null → ''; a string of at most `max` characters, or 400. */
function textOf(body: Body, field: string, max: number): string {
  const value = body[field];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw invalid(`${field} must be a string`);
  if ([...value].length > max) throw invalid(`${field} must be at most ${max} characters`);
  return value;
}

/** A value of `allowed`, or `fallback` for anything else (§17: an unknown category or type falls back to the default). */
const oneOfOr = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback);

/**
 * The user a write acts as (docs/security.md, "Thought experiments"): with a
 * credential (checked valid by the route's guard), its user; a body id that
 * names someone else is 403 `<field> must be the authenticated user`.
 * Without one, the body's id, but only on a `flat` node (SVC_NODE_TIER);
 * elsewhere 401. Null: no credential and no body id (the route's 400).
 */
export function actingUserId(caller: AuthUser | null, bodyId: string | null, field: string, tier: NodeTier): string | null {
  if (caller) {
    if (bodyId !== null && bodyId !== caller.id) throw new DomainError('forbidden', `${field} must be the authenticated user`);
    return caller.id;
  }
  if (tier !== 'flat') throw new DomainError('unauthenticated', UNAUTHENTICATED);
  return bodyId;
}

// ---- POST /experiments ----

export const CREATE_BODY_SCHEMA = {
  type: 'object',
  required: ['title', 'hypothesis'],
  properties: {
    creator_id: { ...idSchema, description: 'only without a credential, on a flat node; with one, absent or the caller' },
    title: { type: 'string', pattern: '\\S', maxLength: TITLE_MAX },
    hypothesis: { type: 'string', pattern: '\\S', maxLength: TEXT_MAX },
    expected_outcome: textSchema(TEXT_MAX),
    intent_category: { description: `${INTENT_CATEGORIES.join(', ')}; anything else: technology` },
    decision_type: { description: `${DECISION_TYPES.join(', ')}; anything else: weighted` },
    experiment_type: { description: `${EXPERIMENT_TYPES.join(', ')}; anything else: traditional` },
    decision_context: { description: 'security_guardrail, technical_improvement, business_revenue, operational_tuning; anything else: from keywords in title and hypothesis' },
    is_core_ip: FLAG_SCHEMA,
    parent_experiment_id: idSchema,
  },
};

export interface CreateRequest {
  creatorId: string | null;
  title: string;
  hypothesis: string;
  expectedOutcome: string;
  intentCategory: string;
  decisionType: string;
  experimentType: ExperimentType;
  decisionContext: DecisionContext | null;
  isCoreIp: boolean;
  parentExperimentId: string | null;
}

const requiredText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** 400 `creator_id, title, and hypothesis required` for a missing title or hypothesis (the creator is checked once the acting user is known). */
export function createRequest(raw: unknown): CreateRequest {
  const body = objectBody(raw);
  if (!requiredText(body.title) || !requiredText(body.hypothesis)) throw invalid(CREATE_REQUIRED);
  const creatorId = idOf(body, 'creator_id');
  if ([...body.title].length > TITLE_MAX) throw invalid(`title must be at most ${TITLE_MAX} characters`);
  if ([...body.hypothesis].length > TEXT_MAX) throw invalid(`hypothesis must be at most ${TEXT_MAX} characters`);
  return {
    creatorId,
    title: body.title.trim(),
    hypothesis: body.hypothesis.trim(),
    expectedOutcome: textOf(body, 'expected_outcome', TEXT_MAX).trim(),
    intentCategory: oneOfOr(body.intent_category, INTENT_CATEGORIES, 'technology'),
    decisionType: oneOfOr(body.decision_type, DECISION_TYPES, 'weighted'),
    experimentType: oneOfOr(body.experiment_type, EXPERIMENT_TYPES, 'traditional'),
    decisionContext: isDecisionContext(body.decision_context) ? body.decision_context : null,
    isCoreIp: flag(body, 'is_core_ip') ?? false,
    parentExperimentId: idOf(body, 'parent_experiment_id'),
  };
}

// ---- POST /experiments/{id}/vote ----

export const VOTE_BODY_SCHEMA = {
  type: 'object',
  properties: {
    voter_id: { ...idSchema, description: 'required without a credential (flat node only); with one, absent or the caller' },
    vote_value: { anyOf: [{ type: 'number' }, { type: 'null' }], description: 'rounded and clamped to -2..2; default 0' },
    reasoning: textSchema(NOTE_MAX),
    suggestion: textSchema(NOTE_MAX),
    voter_type: { enum: ['human', 'agent', null], description: 'without a credential only; with one, the account’s type' },
    confidence: { anyOf: [{ type: 'number' }, { type: 'null' }], description: 'clamped to 0..1, default 1; always 1 for a human' },
  },
};

export interface VoteRequest {
  voterId: string | null;
  value: number;
  reasoning: string;
  suggestion: string;
  voterType: VoterType;
  confidence: number;
}

function numberOf(body: Body, field: string, fallback: number): number {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${field} must be a number`);
  return value;
}

export function voteRequest(raw: unknown): VoteRequest {
  const body = objectBody(raw);
  const voterId = idOf(body, 'voter_id');
  const value = numberOf(body, 'vote_value', 0);
  const reasoning = textOf(body, 'reasoning', NOTE_MAX);
  const suggestion = textOf(body, 'suggestion', NOTE_MAX);
  const type = body.voter_type ?? 'human';
  if (type !== 'human' && type !== 'agent') throw invalid('voter_type must be human or agent');
  return { voterId, value, reasoning, suggestion, voterType: type, confidence: numberOf(body, 'confidence', 1) };
}

// ---- POST /experiments/{id}/contribute ----

export const CONTRIBUTE_BODY_SCHEMA = {
  type: 'object',
  properties: {
    user_id: { ...idSchema, description: 'required without a credential (flat node only); with one, absent or the caller' },
    spark_amount: { anyOf: [{ type: 'number', minimum: -SPARK_MAX, maximum: SPARK_MAX }, { type: 'null' }], description: 'added to funding_total when positive; no spark is taken' },
  },
};

export function contributeRequest(raw: unknown): { userId: string | null; sparkAmount: number } {
  const body = objectBody(raw);
  const userId = idOf(body, 'user_id');
  const sparkAmount = numberOf(body, 'spark_amount', 0);
  if (Math.abs(sparkAmount) > SPARK_MAX) throw invalid(`spark_amount must be at most ${SPARK_MAX}`);
  return { userId, sparkAmount };
}

// ---- POST /experiments/{id}/advance, /decide ----

export const ADVANCE_BODY_SCHEMA = {
  type: 'object',
  properties: { target_status: { anyOf: [{ type: 'string', maxLength: 32 }, { type: 'null' }], description: `one of ${EXPERIMENT_STATUSES.join(', ')}, later than the current status; absent: the next` } },
};

/** Any string is looked up by the decider (an unknown one is `cannot_advance`). */
export function advanceRequest(raw: unknown): { target: string | null } {
  const body = objectBody(raw);
  const target = body.target_status;
  if (target === undefined || target === null || target === '') return { target: null };
  if (typeof target !== 'string' || target.length > 32) throw invalid('cannot_advance');
  return { target };
}

export const DECIDE_BODY_SCHEMA = {
  type: 'object',
  required: ['decision'],
  properties: { decision: { type: 'string', pattern: '\\S', maxLength: NOTE_MAX } },
};

export function decideRequest(raw: unknown): { decision: string } {
  const body = objectBody(raw);
  if (!requiredText(body.decision)) throw invalid('decision required');
  if ([...body.decision].length > NOTE_MAX) throw invalid(`decision must be at most ${NOTE_MAX} characters`);
  return { decision: body.decision.trim() };
}

// ---- auto-evolve ----

export const USER_BODY_SCHEMA = {
  type: 'object',
  properties: { user_id: { ...idSchema, description: 'required without a credential (flat node only); with one, absent or the caller' } },
};

export function userRequest(raw: unknown): { userId: string | null } {
  return { userId: idOf(objectBody(raw), 'user_id') };
}

export const AUTO_EVOLVE_BODY_SCHEMA = {
  type: 'object',
  properties: {
    user_id: { ...idSchema, description: 'without a credential (flat node only); default system' },
    max_experiments: { anyOf: [{ type: 'integer', minimum: 1, maximum: 50 }, { type: 'null' }], default: 5 },
    min_approval_score: { anyOf: [{ type: 'number', minimum: -2, maximum: 2 }, { type: 'null' }], default: 0.3 },
  },
};

export function autoEvolveRequest(raw: unknown): { userId: string | null; maxExperiments: number; minApprovalScore: number } {
  const body = objectBody(raw);
  const userId = idOf(body, 'user_id');
  const max = numberOf(body, 'max_experiments', 5);
  if (!Number.isInteger(max) || max < 1 || max > 50) throw invalid('max_experiments must be an integer from 1 to 50');
  const min = numberOf(body, 'min_approval_score', 0.3);
  if (min < -2 || min > 2) throw invalid('min_approval_score must be a number from -2 to 2');
  return { userId, maxExperiments: max, minApprovalScore: min };
}

// ---- queries ----

const queryString = (value: unknown, field: string): string | null => {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw invalid(`${field} must be given once`);
  return value;
};

/** `?status=` of a list: one of the statuses, or 400. */
export function statusQuery(value: unknown): ExperimentStatus | null {
  const status = queryString(value, 'status');
  if (status === null) return null;
  if (!(EXPERIMENT_STATUSES as readonly string[]).includes(status)) throw invalid(`status must be one of ${EXPERIMENT_STATUSES.join(', ')}`);
  return status as ExperimentStatus;
}

export interface DiscoverQuery {
  userId: string | null;
  intentCategory: string | null;
  experimentType: string | null;
  status: ExperimentStatus | null;
}

export function discoverQuery(query: Record<string, unknown>): DiscoverQuery {
  const userId = queryString(query.user_id, 'user_id');
  if (userId !== null && !ID_PATTERN.test(userId)) throw invalid(`user_id ${ID_RULE}`);
  const intentCategory = queryString(query.intent_category, 'intent_category');
  const experimentType = queryString(query.experiment_type, 'experiment_type');
  return { userId, intentCategory, experimentType, status: statusQuery(query.status) };
}
