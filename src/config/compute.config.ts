/**
 * Environment overrides of the compute settings (SPEC §2.4): each field can
 * be forced with `SVC_<FIELD>` (e.g. SVC_COMPUTE_POLICY, SVC_MAX_HIVE_GPU_PCT,
 * SVC_ALLOW_METERED_FOR_HIVE). A forced field wins over the stored value and
 * the default in the read view. Bad values stop the start with a message that
 * names the variable. A central-tier node cannot be forced to allow metered
 * APIs for the hive.
 */
import {
  COMPUTE_FIELDS,
  type ComputeField,
  type ComputeSettings,
  FIELD_KINDS,
  fieldProblem,
} from '../aggregates/compute/compute-fields';
import { ConfigError } from './config-error';
import type { NodeTier } from './node-tier';

export type ComputeOverrides = Partial<ComputeSettings>;

export const COMPUTE_OVERRIDES = Symbol('COMPUTE_OVERRIDES');

export function computeVariable(field: ComputeField): string {
  return `SVC_${field.toUpperCase()}`;
}

function parse(field: ComputeField, variable: string, text: string): unknown {
  const kind = FIELD_KINDS[field].kind;
  if (kind === 'boolean') {
    const lower = text.toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(lower)) return true;
    if (['0', 'false', 'off', 'no'].includes(lower)) return false;
    throw new ConfigError(variable, `expected true or false, got '${text}'`);
  }
  if (kind === 'enum') return text;
  if (!/^\d+(\.\d+)?$/.test(text)) throw new ConfigError(variable, `expected a non-negative number, got '${text}'`);
  return Number(text);
}

export function loadComputeOverrides(env: Record<string, string | undefined>, nodeTier: NodeTier = 'flat'): ComputeOverrides {
  const overrides: Record<string, unknown> = {};
  for (const field of COMPUTE_FIELDS) {
    const variable = computeVariable(field);
    const text = env[variable]?.trim();
    if (!text) continue;
    const value = parse(field, variable, text);
    const problem = fieldProblem(field, value);
    if (problem) throw new ConfigError(variable, `${problem}, got '${text}'`);
    overrides[field] = value;
  }
  if (nodeTier === 'central' && overrides.allow_metered_for_hive === true) {
    throw new ConfigError('SVC_ALLOW_METERED_FOR_HIVE', 'central nodes cannot enable metered APIs for hive (SVC_NODE_TIER=central)');
  }
  return overrides as ComputeOverrides;
}
