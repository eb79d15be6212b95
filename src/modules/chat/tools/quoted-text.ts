/**
 * The quoted text of a step ('count the words in "to be or not"'): the text
 * tools work on it alone, so the instruction around it never leaks into the
 * result. Splitting a prompt into steps also skips quoted spans, so a ';' or
 * a "then" inside quotes stays part of the text.
 */

/**
 * Opening and closing marks. A straight single quote opens only after a
 * non-word character and closes only before one, so apostrophes ("what's",
 * "don't") are not quotes.
 */
const QUOTED = /"([^"]*)"|“([^”]*)”|‘([^’]*)’|«([^»]*)»|`([^`]*)`|(?<![\w])'([^']*)'(?![\w])/g;

export interface QuotedSpan {
  text: string;
  start: number;
  end: number;
}

export function quotedSpans(text: string): QuotedSpan[] {
  return [...text.matchAll(QUOTED)].map((match) => ({
    text: match.slice(1).find((group) => group !== undefined) ?? '',
    start: match.index ?? 0,
    end: (match.index ?? 0) + match[0].length,
  }));
}

/** The first quoted text of a step, or null when it quotes none. */
export function quotedText(text: string): string | null {
  return quotedSpans(text)[0]?.text ?? null;
}

/** The text in quote marks that quotedText reads back unchanged. */
export function quote(text: string): string {
  if (!text.includes('"')) return `"${text}"`;
  if (!text.includes('”')) return `“${text}”`;
  if (!text.includes('`')) return `\`${text}\``;
  return `«${text}»`;
}

/**
 * The text with every quoted span blanked out with '_' (same length, so
 * offsets still match the original), for scans of the instruction alone.
 * Not spaces: a run of blanks would let a "\s+and then" reach into the quote.
 */
export function maskQuoted(text: string): string {
  let masked = text;
  for (const span of quotedSpans(text)) {
    masked = masked.slice(0, span.start) + '_'.repeat(span.end - span.start) + masked.slice(span.end);
  }
  return masked;
}
