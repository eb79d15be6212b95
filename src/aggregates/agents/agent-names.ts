/**
 * Agent names (social-routes §3). A global name is three words `a.b.c`, each
 * 2–15 lowercase letters, at most 47 characters: it is the agent's username.
 * A local name is two words `a.b`, at most 31 characters, chosen by an owner
 * whose handle completes it: the global name is `<local>.<handle>`. No word
 * may be reserved. Pure rules: suggestions take their randomness from the
 * caller.
 */

export type NameMode = 'global' | 'local';
export const NAME_MODES: readonly NameMode[] = ['global', 'local'];

export const GLOBAL_NAME_MAX = 47;
export const LOCAL_NAME_MAX = 31;
const WORD = /^[a-z]{2,15}$/;

/** Words no name (and no handle) may use: authority, system and the original's product names. */
export const RESERVED_WORDS: ReadonlySet<string> = new Set([
  'admin',
  'administrator',
  'root',
  'system',
  'sysadmin',
  'superuser',
  'bot',
  'test',
  'api',
  'moderator',
  'mod',
  'support',
  'help',
  'staff',
  'official',
  'security',
  'deleted',
  'banned',
  'null',
  'undefined',
  'anonymous',
  'guest',
  'everyone',
  'owner',
  'operator',
  'hevolve',
  'hertz',
  'nunba',
  'hive',
]);

export type NameCheck = { valid: true; name: string; globalName: string } | { valid: false; name: string; error: string };

const words = (name: string): string[] => name.split('.');

function wordError(word: string): string | null {
  if (!WORD.test(word)) return `Each word must be 2-15 lowercase letters (got "${word}")`;
  if (RESERVED_WORDS.has(word)) return `"${word}" is a reserved word`;
  return null;
}

/** A name as typed: trimmed and lower-cased. */
export const normaliseName = (name: string): string => name.trim().toLowerCase();

/** Checks a global (3-word) name. */
export function checkGlobalName(input: string): NameCheck {
  const name = normaliseName(input);
  if (!name) return { valid: false, name, error: 'Name is required' };
  const parts = words(name);
  if (parts.length !== 3) return { valid: false, name, error: 'A global name has 3 words separated by dots (word.word.word)' };
  if (name.length > GLOBAL_NAME_MAX) return { valid: false, name, error: `A global name has at most ${GLOBAL_NAME_MAX} characters` };
  for (const word of parts) {
    const error = wordError(word);
    if (error) return { valid: false, name, error };
  }
  return { valid: true, name, globalName: name };
}

/** Checks a handle as the last word of a global name: 2–15 lowercase letters, not reserved. */
export function checkHandle(handle: string | null | undefined): string | null {
  if (!handle) return 'A local name needs the owner handle: set your handle first';
  return wordError(handle);
}

/** Checks a local (2-word) name; with the owner's handle, also the global name it makes. */
export function checkLocalName(input: string, handle: string | null | undefined): NameCheck {
  const name = normaliseName(input);
  if (!name) return { valid: false, name, error: 'Name is required' };
  const parts = words(name);
  if (parts.length !== 2) return { valid: false, name, error: 'A local name has 2 words separated by a dot (word.word)' };
  if (name.length > LOCAL_NAME_MAX) return { valid: false, name, error: `A local name has at most ${LOCAL_NAME_MAX} characters` };
  for (const word of parts) {
    const error = wordError(word);
    if (error) return { valid: false, name, error };
  }
  const handleError = checkHandle(handle);
  if (handleError) return { valid: false, name, error: handleError };
  const global = checkGlobalName(`${name}.${handle}`);
  if (!global.valid) return { valid: false, name, error: global.error };
  return { valid: true, name, globalName: global.globalName };
}

export function checkName(input: string, mode: NameMode, handle?: string | null): NameCheck {
  return mode === 'global' ? checkGlobalName(input) : checkLocalName(input, handle);
}

export const ADJECTIVES: readonly string[] = [
  'amber', 'bold', 'brave', 'bright', 'calm', 'clever', 'cosmic', 'crisp', 'curious', 'daring', 'deep', 'eager', 'fair',
  'gentle', 'golden', 'grand', 'happy', 'humble', 'keen', 'kind', 'lively', 'lucid', 'lunar', 'merry', 'mighty', 'misty',
  'nimble', 'noble', 'patient', 'placid', 'proud', 'quick', 'quiet', 'rapid', 'serene', 'sharp', 'silent', 'silver', 'solar',
  'steady', 'swift', 'tidy', 'vivid', 'warm', 'wise', 'witty', 'zesty',
];

export const NOUNS: readonly string[] = [
  'atlas', 'badger', 'beacon', 'cedar', 'comet', 'coral', 'crane', 'delta', 'ember', 'falcon', 'fern', 'finch', 'forge',
  'fox', 'glacier', 'harbor', 'hawk', 'heron', 'horizon', 'lark', 'lynx', 'maple', 'meadow', 'nebula', 'oak', 'orbit',
  'otter', 'owl', 'pine', 'prism', 'quartz', 'raven', 'reef', 'river', 'sage', 'sparrow', 'spark', 'summit', 'tide',
  'tiger', 'vale', 'willow', 'wolf', 'wren',
];

export const ROLES_WORDS: readonly string[] = [
  'analyst', 'builder', 'coder', 'crafter', 'dreamer', 'explorer', 'finder', 'guide', 'helper', 'maker', 'mentor', 'planner',
  'pilot', 'ranger', 'scholar', 'scout', 'seeker', 'solver', 'teacher', 'thinker', 'tracker', 'tutor', 'weaver', 'writer',
];

/** A source of randomness: an integer in [0, n). */
export type Pick = (n: number) => number;

const pickFrom = <T>(items: readonly T[], pick: Pick): T => items[pick(items.length)];

/** One candidate name for the mode: `adjective.noun.role` (global) or `adjective.noun` (local). */
export function candidateName(mode: NameMode, pick: Pick): string {
  const two = `${pickFrom(ADJECTIVES, pick)}.${pickFrom(NOUNS, pick)}`;
  return mode === 'global' ? `${two}.${pickFrom(ROLES_WORDS, pick)}` : two;
}

/**
 * Up to `count` distinct candidates (`attempts` draws at most), each valid for
 * the mode; the caller removes the ones already taken.
 */
export function candidateNames(mode: NameMode, count: number, pick: Pick, attempts = count * 8): string[] {
  const names = new Set<string>();
  for (let i = 0; i < attempts && names.size < count; i++) names.add(candidateName(mode, pick));
  return [...names];
}
