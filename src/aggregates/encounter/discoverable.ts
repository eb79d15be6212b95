/**
 * A user's discoverable preference (stream `encounterDiscoverable-<userId>`,
 * SPEC §2.6, §3, §4.7 rules 8–9).
 *
 * Every accepted POST is one toggle, on or off. The toggle window slides: it
 * starts at the first toggle and restarts at the next toggle made more than
 * 24 h after its start (exactly 24 h is still inside). The limit check runs
 * before the adult-claim check, so a user over the limit hears 429 even when
 * the claim is missing. Expiry is a matter of time only: nothing is recorded
 * when `expires_at` passes; reads compare it with the clock (discoverableView,
 * isDiscoverableAt).
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';
import {
  AVATAR_STYLE_MAX_CHARS,
  DEFAULT_AVATAR_STYLE,
  TOGGLE_WINDOW_MS,
  VIBE_TAGS_MAX,
  VIBE_TAG_MAX_CHARS,
  type EncounterLimits,
} from './encounter-limits';
import type { DiscoverableEvent, DiscoverableProfile, ToggleWindow } from './encounter.events';

/** The toggle window of a preference toggled at least once. */
interface Toggled {
  profile: DiscoverableProfile;
  toggleCount: number;
  windowStart: string;
  lastToggleAt: string;
}

/**
 * Never toggled (the default profile), or as last toggled: enabled until
 * `expiresAt` (see isDiscoverableAt for "enabled right now"), or disabled.
 */
export type DiscoverableState =
  | { status: 'none'; profile: DiscoverableProfile }
  | (Toggled & { status: 'enabled'; enabledAt: string; expiresAt: string })
  | (Toggled & { status: 'disabled' });

export type DiscoverableCommand = {
  kind: 'set';
  userId: string;
  enabled: boolean;
  ttlSec?: number;
  ageClaim18?: boolean;
  faceVisible?: boolean;
  avatarStyle?: string;
  vibeTags?: string[];
  limits: EncounterLimits;
};

/** What the GET view is computed from: the state (discoverablePreference), or the encounter profile read model mapped to it. */
export interface DiscoverablePreference {
  /** as last toggled */
  enabled: boolean;
  /** null unless enabled */
  expiresAt: string | null;
  profile: DiscoverableProfile;
  toggleCount: number;
  /** null until the first toggle */
  windowStart: string | null;
}

/** GET /encounter/discoverable (SPEC §4.7). */
export interface DiscoverableView {
  enabled: boolean;
  expires_at: string | null;
  remaining_sec: number;
  toggle_count_24h: number;
  age_claim_18: boolean;
  face_visible: boolean;
  avatar_style: string;
  vibe_tags: string[];
}

export const DEFAULT_DISCOVERABLE_PROFILE: DiscoverableProfile = {
  age_claim_18: false,
  face_visible: false,
  avatar_style: DEFAULT_AVATAR_STYLE,
  vibe_tags: [],
};

function cut(text: string, maxCodePoints: number): string {
  const points = [...text];
  return points.length <= maxCodePoints ? text : points.slice(0, maxCodePoints).join('');
}

/** avatar_style cut to 64 code points; an empty value falls back to the default. */
export function normaliseAvatarStyle(style: string): string {
  const value = cut(style, AVATAR_STYLE_MAX_CHARS);
  return value === '' ? DEFAULT_AVATAR_STYLE : value;
}

/**
 * vibe_tags: blank tags (empty or only white space) are left out, then at
 * most 10 are kept, each cut to 40 code points. The spelling is kept as given.
 */
export function normaliseVibeTags(tags: readonly string[]): string[] {
  return tags
    .filter((tag) => typeof tag === 'string' && tag.trim() !== '')
    .slice(0, VIBE_TAGS_MAX)
    .map((tag) => cut(tag, VIBE_TAG_MAX_CHARS));
}

/**
 * ttl_sec: missing, not a number, <= 0 (also after flooring, e.g. 0.5) or
 * above the maximum become the maximum; anything else is floored.
 */
export function effectiveTtlSec(ttlSec: number | undefined, limits: EncounterLimits): number {
  const max = limits.discoverableTtlSec;
  if (ttlSec === undefined || !Number.isFinite(ttlSec)) return max;
  const ttl = Math.floor(ttlSec);
  return ttl <= 0 || ttlSec > max ? max : ttl;
}

function windowIsOver(windowStart: string | null, now: Date): boolean {
  return windowStart === null || now.getTime() - Date.parse(windowStart) > TOGGLE_WINDOW_MS;
}

/** The preference a state holds, in the shape the view shares with the read model. */
export function discoverablePreference(state: DiscoverableState): DiscoverablePreference {
  switch (state.status) {
    case 'none':
      return { enabled: false, expiresAt: null, profile: state.profile, toggleCount: 0, windowStart: null };
    case 'enabled':
      return { enabled: true, expiresAt: state.expiresAt, profile: state.profile, toggleCount: state.toggleCount, windowStart: state.windowStart };
    case 'disabled':
      return { enabled: false, expiresAt: null, profile: state.profile, toggleCount: state.toggleCount, windowStart: state.windowStart };
    default:
      return assertNever(state);
  }
}

/** Discoverable right now: enabled and not yet expired. Takes a preference or a stored {enabled, expires_at} row. */
export function isDiscoverableAt(
  record: Pick<DiscoverablePreference, 'enabled' | 'expiresAt'> | { enabled: boolean; expires_at: string | null },
  now: Date,
): boolean {
  const expiresAt = 'expiresAt' in record ? record.expiresAt : record.expires_at;
  return record.enabled && expiresAt !== null && Date.parse(expiresAt) > now.getTime();
}

/**
 * The GET view. `enabled` is true only while the stored preference is on and
 * unexpired; remaining_sec is the whole seconds left (0 when not enabled).
 * expires_at is null once disabled; after a time-out it keeps the stored,
 * past value (it says when discoverability ended) while enabled reads false.
 * toggle_count_24h reads 0 once the window is more than 24 h old.
 */
export function discoverableView(state: DiscoverablePreference, now: Date): DiscoverableView {
  const enabled = isDiscoverableAt(state, now);
  const remaining = enabled && state.expiresAt !== null ? Math.floor((Date.parse(state.expiresAt) - now.getTime()) / 1000) : 0;
  return {
    enabled,
    expires_at: state.enabled ? state.expiresAt : null,
    remaining_sec: Math.max(0, remaining),
    toggle_count_24h: windowIsOver(state.windowStart, now) ? 0 : state.toggleCount,
    age_claim_18: state.profile.age_claim_18,
    face_visible: state.profile.face_visible,
    avatar_style: state.profile.avatar_style,
    vibe_tags: [...state.profile.vibe_tags],
  };
}

function profileOf(data: DiscoverableProfile): DiscoverableProfile {
  return {
    age_claim_18: data.age_claim_18,
    face_visible: data.face_visible,
    avatar_style: data.avatar_style,
    vibe_tags: [...data.vibe_tags],
  };
}

export const discoverableDecider: Decider<DiscoverableState, DiscoverableCommand, DiscoverableEvent> = {
  initialState: { status: 'none', profile: DEFAULT_DISCOVERABLE_PROFILE },
  evolve(_state, event) {
    const toggled: Toggled = {
      profile: profileOf(event.data),
      toggleCount: event.data.toggle_count_24h,
      windowStart: event.data.toggle_window_start,
      lastToggleAt: event.data.last_toggle_at,
    };
    switch (event.type) {
      case 'DiscoverableEnabled':
        return { ...toggled, status: 'enabled', enabledAt: event.data.enabled_at, expiresAt: event.data.expires_at };
      case 'DiscoverableDisabled':
        return { ...toggled, status: 'disabled' };
      default:
        return assertNever(event);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'set': {
        const { limits } = command;
        const { windowStart, count } =
          state.status === 'none' || windowIsOver(state.windowStart, now)
            ? { windowStart: now.toISOString(), count: 0 }
            : { windowStart: state.windowStart, count: state.toggleCount };
        if (count >= limits.maxToggles24h) {
          throw new DomainError('rate_limited', `toggle limit reached (${limits.maxToggles24h} per 24h)`);
        }
        if (command.enabled && command.ageClaim18 !== true) {
          throw new DomainError('forbidden', 'age_claim_18 must be true to enable discoverable');
        }
        const profile: DiscoverableProfile = {
          age_claim_18: command.ageClaim18 ?? state.profile.age_claim_18,
          face_visible: command.faceVisible ?? state.profile.face_visible,
          avatar_style: command.avatarStyle === undefined ? state.profile.avatar_style : normaliseAvatarStyle(command.avatarStyle),
          vibe_tags: command.vibeTags === undefined ? [...state.profile.vibe_tags] : normaliseVibeTags(command.vibeTags),
        };
        const window: ToggleWindow = {
          toggle_count_24h: count + 1,
          toggle_window_start: windowStart,
          last_toggle_at: now.toISOString(),
        };
        if (!command.enabled) {
          return [
            { type: 'DiscoverableDisabled', data: { user_id: command.userId, ...profile, ...window, disabled_at: now.toISOString() } },
          ];
        }
        const ttl = effectiveTtlSec(command.ttlSec, limits);
        return [
          {
            type: 'DiscoverableEnabled',
            data: {
              user_id: command.userId,
              ...profile,
              ...window,
              enabled_at: now.toISOString(),
              expires_at: new Date(now.getTime() + ttl * 1000).toISOString(),
              ttl_sec: ttl,
            },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
