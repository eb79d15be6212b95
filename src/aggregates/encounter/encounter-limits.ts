/**
 * The encounter constants (SPEC §8), configurable (src/config/encounter.config.ts).
 * Deciders get them with each command, so they stay free of configuration.
 */
export interface EncounterLimits {
  /** discoverable TTL: default and maximum ttl_sec */
  discoverableTtlSec: number;
  /** toggles (on or off) per sliding 24 h window */
  maxToggles24h: number;
  /** opener text, in characters (code points) */
  draftMaxChars: number;
  /** a reciprocal like counts when the two sightings lie this close, either direction */
  matchWindowSec: number;
  /** a sighting can be swiped for this long after sighted_at */
  sightingExpiresSec: number;
  /** how often phones rotate their public key (phone side; reported, not enforced) */
  pubkeyRotationSec: number;
}

export const DEFAULT_ENCOUNTER_LIMITS: EncounterLimits = {
  discoverableTtlSec: 14400,
  maxToggles24h: 6,
  draftMaxChars: 220,
  matchWindowSec: 300,
  sightingExpiresSec: 86400,
  pubkeyRotationSec: 900,
};

export const DEFAULT_AVATAR_STYLE = 'studio_ghibli';
export const AVATAR_STYLE_MAX_CHARS = 64;
export const VIBE_TAGS_MAX = 10;
export const VIBE_TAG_MAX_CHARS = 40;
export const DECLINE_REASON_MAX_CHARS = 400;
export const TOGGLE_WINDOW_MS = 24 * 60 * 60 * 1000;
