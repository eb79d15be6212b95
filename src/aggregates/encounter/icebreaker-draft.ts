/**
 * The template opener for a match (POST /encounter/icebreaker/draft, response
 * shape from the reference: {draft, rationale, alt_drafts, length, shared_tag,
 * source}). Pure and deterministic: the same match (id and cards) always gets
 * the same draft, picked by a hash of the match id.
 *
 * The openers are friendly and neutral: they talk about tags and avatar
 * styles the users chose to show, never about looks, bodies or where the other
 * person is. The most specific kind available leads (a shared tag, then the
 * peer's first tag, then the peer's avatar style, then a neutral line); the
 * template within each kind is rotated by the hash, and the two alternatives
 * are the next distinct texts (same kind first, then the less specific ones). Every text is trimmed and at
 * most maxChars code points, cut on a word boundary with '…' when needed.
 * The three texts are distinct whenever the templates still differ after the
 * cut (always for maxChars >= 20; below that they may repeat rather than fail).
 */
import { createHash } from 'node:crypto';

export interface DraftCard {
  avatar_style: string;
  vibe_tags: string[];
}

export interface DraftInput {
  matchId: string;
  self: DraftCard;
  peer: DraftCard;
  maxChars: number;
}

export interface IcebreakerDraft {
  draft: string;
  rationale: string;
  alt_drafts: [string, string];
  length: number;
  shared_tag: string | null;
  source: 'template';
}

type Kind = 'shared' | 'peerTag' | 'avatar' | 'neutral';

interface Candidate {
  kind: Kind;
  text: string;
}

const ELLIPSIS = '…';
const TRAILING_PUNCTUATION = /[\s,;:.!?\-–—(“"']+$/u;

function codePoints(text: string): string[] {
  return [...text];
}

function clean(tag: string): string {
  return typeof tag === 'string' ? tag.trim() : '';
}

/** The first of self's tags also among the peer's (case-insensitive, trimmed), in self's spelling. */
export function sharedTag(self: readonly string[], peer: readonly string[]): string | null {
  const peerKeys = new Set(peer.map((tag) => clean(tag).toLowerCase()).filter((key) => key !== ''));
  for (const tag of self) {
    const value = clean(tag);
    if (value !== '' && peerKeys.has(value.toLowerCase())) return value;
  }
  return null;
}

/**
 * Trims the text and, when longer than maxChars code points, cuts it on a word
 * boundary (falling back to a hard cut for one long word) and adds '…'.
 */
export function fitText(text: string, maxChars: number): string {
  const max = Math.max(1, Math.floor(Number.isFinite(maxChars) ? maxChars : 1));
  const trimmed = text.trim();
  const points = codePoints(trimmed);
  if (points.length <= max) return trimmed;
  if (max === 1) return ELLIPSIS;
  const room = points.slice(0, max - 1);
  const nextIsSpace = /\s/u.test(points[max - 1] ?? '');
  let head = room.join('');
  if (!nextIsSpace) {
    const lastSpace = room.map((p) => /\s/u.test(p)).lastIndexOf(true);
    if (lastSpace > 0) head = room.slice(0, lastSpace).join('');
  }
  head = head.replace(TRAILING_PUNCTUATION, '');
  if (head === '') head = room.join('').trimEnd();
  return `${head}${ELLIPSIS}`;
}

function readable(style: string): string {
  return clean(style).replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
}

function templates(kind: Kind, value: string): string[] {
  switch (kind) {
    case 'shared':
      return [
        `Hey! I saw we both like ${value}. What got you into it?`,
        `Fellow ${value} fan here! Any tips or favourites you would recommend?`,
        `Small world: ${value} is one of my things too. What do you enjoy most about it?`,
      ];
    case 'peerTag':
      return [
        `Hi! Your "${value}" tag caught my eye. How did you get into it?`,
        `I noticed you're into ${value}. I'd love to hear what you like about it!`,
      ];
    case 'avatar':
      return [
        `Hello! Nice ${value} avatar. Did you pick that style yourself?`,
        `Love the ${value} look of your avatar! What drew you to that style?`,
      ];
    case 'neutral':
      return [
        `Hi there! Looks like our paths crossed today. Hope your day is going well!`,
        `Hey! Fancy crossing paths. What has been the best part of your day so far?`,
        `Good to meet you! Would you be up for a quick chat sometime?`,
      ];
  }
}

function rationaleFor(kind: Kind, value: string): string {
  switch (kind) {
    case 'shared':
      return `You both tagged "${value}".`;
    case 'peerTag':
      return `They tagged "${value}", so the opener asks about it.`;
    case 'avatar':
      return `No tags to go on, so the opener mentions their ${value} avatar style.`;
    case 'neutral':
      return 'Nothing to go on yet, so a friendly, neutral opener.';
  }
}

function hashOf(matchId: string): number {
  return parseInt(createHash('sha256').update(String(matchId), 'utf8').digest('hex').slice(0, 8), 16);
}

function rotate<T>(items: T[], by: number): T[] {
  if (items.length === 0) return items;
  const start = by % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

export function draftIcebreaker(input: DraftInput): IcebreakerDraft {
  const shared = sharedTag(input.self.vibe_tags ?? [], input.peer.vibe_tags ?? []);
  const peerTag = (input.peer.vibe_tags ?? []).map(clean).find((tag) => tag !== '') ?? null;
  const style = readable(input.peer.avatar_style ?? '');
  const hash = hashOf(input.matchId);

  const kinds: Array<[Kind, string]> = [];
  if (shared !== null) kinds.push(['shared', shared]);
  if (peerTag !== null && (shared === null || peerTag.toLowerCase() !== shared.toLowerCase())) kinds.push(['peerTag', peerTag]);
  if (style !== '') kinds.push(['avatar', style]);
  kinds.push(['neutral', '']);

  // The leading kind's templates first (rotated by the hash), then the others' in turn.
  const candidates: Candidate[] = kinds.flatMap(([kind, value], i) =>
    rotate(templates(kind, value), hash + i).map((text) => ({ kind, text: fitText(text, input.maxChars) })),
  );
  const distinct: Candidate[] = [];
  for (const candidate of candidates) {
    if (!distinct.some((c) => c.text === candidate.text)) distinct.push(candidate);
  }
  // The leader is the first text of the most specific kind; the alternatives are the next distinct texts.
  const [lead, ...rest] = distinct;
  const alt1 = rest[0]?.text ?? lead.text;
  const alt2 = rest[1]?.text ?? alt1;
  return {
    draft: lead.text,
    rationale: rationaleFor(lead.kind, kinds[0][1]),
    alt_drafts: [alt1, alt2],
    length: codePoints(lead.text).length,
    shared_tag: shared,
    source: 'template',
  };
}
