/**
 * A user's consents (stream `consent-<userId>`, SPEC §4.7 rule 11). A consent
 * is a (type, scope) pair; granting an active one and revoking an inactive one
 * record nothing. The drafting endpoint, in the central topology, needs an
 * active cloud_capability consent with scope `*` or `encounter_icebreaker`.
 */
import type { Decider } from '../shared/decider';
import { assertNever } from '../shared/domain-error';
import type { ConsentEvent } from './encounter.events';

export interface ActiveConsent {
  consent_type: string;
  scope: string;
  granted_at: string;
}

export interface ConsentState {
  /** by `${consent_type}|${scope}` */
  active: Record<string, ActiveConsent>;
}

export type ConsentCommand = { kind: 'grant' | 'revoke'; userId: string; consentType: string; scope: string };

export const CLOUD_DRAFTING_CONSENT_TYPE = 'cloud_capability';
export const CLOUD_DRAFTING_SCOPES: readonly string[] = ['*', 'encounter_icebreaker'];

function keyOf(consentType: string, scope: string): string {
  return `${consentType}|${scope}`;
}

function isActive(state: ConsentState, consentType: string, scope: string): boolean {
  return Object.prototype.hasOwnProperty.call(state.active, keyOf(consentType, scope));
}

/** Cloud drafting allowed by these active consents: a cloud_capability consent with scope `*` or `encounter_icebreaker`. */
export function allowsCloudDrafting(active: readonly Pick<ActiveConsent, 'consent_type' | 'scope'>[]): boolean {
  return active.some((c) => c.consent_type === CLOUD_DRAFTING_CONSENT_TYPE && CLOUD_DRAFTING_SCOPES.includes(c.scope));
}

/** The active consents, sorted by type, then scope. */
export function activeConsents(state: ConsentState): ActiveConsent[] {
  return Object.values(state.active)
    .map((consent) => ({ ...consent }))
    .sort((x, y) => compare(x.consent_type, y.consent_type) || compare(x.scope, y.scope));
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

export const consentDecider: Decider<ConsentState, ConsentCommand, ConsentEvent> = {
  initialState: { active: {} },
  evolve(state, event) {
    switch (event.type) {
      case 'ConsentGranted': {
        const { consent_type, scope, granted_at } = event.data;
        return { active: { ...state.active, [keyOf(consent_type, scope)]: { consent_type, scope, granted_at } } };
      }
      case 'ConsentRevoked': {
        const active = { ...state.active };
        delete active[keyOf(event.data.consent_type, event.data.scope)];
        return { active };
      }
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    const active = isActive(state, command.consentType, command.scope);
    const base = { user_id: command.userId, consent_type: command.consentType, scope: command.scope };
    switch (command.kind) {
      case 'grant':
        return active ? [] : [{ type: 'ConsentGranted', data: { ...base, granted_at: now.toISOString() } }];
      case 'revoke':
        return active ? [{ type: 'ConsentRevoked', data: { ...base, revoked_at: now.toISOString() } }] : [];
      default:
        return assertNever(command.kind);
    }
  },
};
