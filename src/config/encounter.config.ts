/**
 * The encounter constants from the environment (SPEC §8, issue defaults):
 * SVC_ENCOUNTER_DISCOVERABLE_TTL_SEC, SVC_ENCOUNTER_MAX_TOGGLES_24H,
 * SVC_ENCOUNTER_DRAFT_MAX_CHARS, SVC_ENCOUNTER_MATCH_WINDOW_SEC,
 * SVC_ENCOUNTER_SIGHTING_EXPIRES_SEC, SVC_ENCOUNTER_PUBKEY_ROTATION_SEC, and
 * SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC (the SSE heartbeat) and
 * SVC_ENCOUNTER_INBOX_RETENTION_DAYS (how long a missed message can still be
 * resumed; default 7) and SVC_ENCOUNTER_STREAMS_PER_USER (open streams one
 * user may hold on one process; default 5). Each must be a
 * positive integer; anything else is a ConfigError naming the variable.
 */
import { DEFAULT_ENCOUNTER_LIMITS, type EncounterLimits } from '../aggregates/encounter/encounter-limits';
import { ConfigError } from './config-error';

export interface EncounterConfig extends EncounterLimits {
  streamHeartbeatSec: number;
  inboxRetentionDays: number;
  streamsPerUser: number;
}

type Env = Record<string, string | undefined>;

const VARIABLES: Record<keyof EncounterConfig, [string, number]> = {
  discoverableTtlSec: ['SVC_ENCOUNTER_DISCOVERABLE_TTL_SEC', DEFAULT_ENCOUNTER_LIMITS.discoverableTtlSec],
  maxToggles24h: ['SVC_ENCOUNTER_MAX_TOGGLES_24H', DEFAULT_ENCOUNTER_LIMITS.maxToggles24h],
  draftMaxChars: ['SVC_ENCOUNTER_DRAFT_MAX_CHARS', DEFAULT_ENCOUNTER_LIMITS.draftMaxChars],
  matchWindowSec: ['SVC_ENCOUNTER_MATCH_WINDOW_SEC', DEFAULT_ENCOUNTER_LIMITS.matchWindowSec],
  sightingExpiresSec: ['SVC_ENCOUNTER_SIGHTING_EXPIRES_SEC', DEFAULT_ENCOUNTER_LIMITS.sightingExpiresSec],
  pubkeyRotationSec: ['SVC_ENCOUNTER_PUBKEY_ROTATION_SEC', DEFAULT_ENCOUNTER_LIMITS.pubkeyRotationSec],
  streamHeartbeatSec: ['SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC', 15],
  inboxRetentionDays: ['SVC_ENCOUNTER_INBOX_RETENTION_DAYS', 7],
  streamsPerUser: ['SVC_ENCOUNTER_STREAMS_PER_USER', 5],
};

const MAX = 10 * 365 * 24 * 3600;

function positive(env: Env, name: string, fallback: number): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX) {
    throw new ConfigError(name, `expected a positive integer (1..${MAX}), got '${value}'`);
  }
  return Number(value);
}

export function loadEncounterConfig(env: Env): EncounterConfig {
  const entries = Object.entries(VARIABLES).map(([key, [name, fallback]]) => [key, positive(env, name, fallback)]);
  return Object.fromEntries(entries) as EncounterConfig;
}

/** Nest injection token of the EncounterConfig. */
export const ENCOUNTER_CONFIG = Symbol('ENCOUNTER_CONFIG');
