/**
 * Guest recovery codes: six words drawn from a fixed list of 48 (about 33
 * bits), shown once; only a keyed hash is stored. Matching ignores case and
 * extra spaces.
 */
import { randomInt } from 'node:crypto';

const WORDS = [
  'amber', 'anchor', 'apple', 'arrow', 'aspen', 'badge', 'basil', 'beacon',
  'birch', 'bloom', 'breeze', 'brook', 'cedar', 'cinder', 'clover', 'comet',
  'coral', 'crane', 'dawn', 'delta', 'ember', 'falcon', 'fern', 'flint',
  'forest', 'garnet', 'glade', 'harbor', 'hazel', 'heron', 'iris', 'ivory',
  'jasper', 'juniper', 'lagoon', 'lantern', 'lark', 'maple', 'meadow', 'mesa',
  'nova', 'oak', 'orchid', 'pebble', 'pine', 'quartz', 'raven', 'willow',
] as const;

export function newRecoveryCode(): string {
  return Array.from({ length: 6 }, () => WORDS[randomInt(WORDS.length)]).join(' ');
}

export function normaliseRecoveryCode(code: string): string {
  return code.trim().toLowerCase().split(/\s+/).join(' ');
}
