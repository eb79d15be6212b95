/**
 * Splits a prompt into steps by its structure alone, no model: the agent's
 * recipes (each step becomes an action with its tool and inputs), the offline
 * engine's answer and a goal's offline plan are built from it. In this order:
 *
 *   1. numbered or bulleted lines ("1. ...", "2) ...", "- ...", "* ...", "• ...")
 *      are the steps; text around the list is its preamble and is left out;
 *   2. otherwise the text is cut at ';';
 *   3. each piece is cut where a sequence word joins two parts: "then",
 *      "and then", "after that", "afterwards", and "next" / "finally" / "lastly"
 *      at the start of a sentence; a bare "then" inside an if/when clause is a
 *      condition, not a sequence, and stays;
 *   4. a prompt with none of these is one step.
 *
 * Quoted text is never cut: 'reverse "a; then b"' is one step.
 */
import { maskQuoted } from './quoted-text';
import { findTool, type Tool } from './built-in-tools';

export interface PlannedStep {
  /** 0-based position in the prompt */
  index: number;
  text: string;
  /** the built-in tool that can do the step, null when it needs a language model */
  tool: string | null;
  /** the tool's canonical input (what a recipe stores), or the step's text when no tool can do it */
  input: string;
}

const LIST_ITEM = /^\s*(?:\(?\d{1,3}[.):]|[-*•‣▪◦+])\s+(\S.*)$/;
const CONTINUATION = /^\s{2,}\S/;
const MAX_STEPS = 50;

/** The prompt's steps as plain texts, in order. */
export function splitSteps(prompt: string): string[] {
  const text = prompt.replace(/\r\n?/g, '\n').trim();
  if (text === '') return [];
  const listed = listItems(text);
  const pieces = listed ?? cutAt(text.replace(/\s*\n\s*/g, ' '), /;/g).flatMap(cutAtSequenceWords);
  const steps = pieces.map(clean).filter((step) => step !== '');
  return (steps.length > 0 ? steps : [text]).slice(0, MAX_STEPS);
}

/** The prompt's steps, each with the built-in tool that can do it. */
export function decompose(prompt: string, tools: readonly Tool[]): PlannedStep[] {
  return splitSteps(prompt).map((text, index) => {
    const tool = findTool(tools, text);
    return { index, text, tool: tool?.name ?? null, input: tool ? tool.input(text) : text };
  });
}

/** The items of a numbered or bulleted list, with their indented continuation lines; null when there is no list. */
function listItems(text: string): string[] | null {
  const items: string[] = [];
  let inItem = false;
  for (const line of text.split('\n')) {
    const item = LIST_ITEM.exec(line);
    if (item) {
      items.push(item[1]);
      inItem = true;
    } else if (inItem && CONTINUATION.test(line)) {
      items[items.length - 1] += ` ${line.trim()}`;
    } else {
      inItem = false;
    }
  }
  return items.length > 0 ? items : null;
}

/** Cuts text at each match of `separator` outside quoted spans; the separators are dropped. */
function cutAt(text: string, separator: RegExp): string[] {
  const masked = maskQuoted(text);
  const pieces: string[] = [];
  let start = 0;
  for (const match of masked.matchAll(separator)) {
    const at = match.index ?? 0;
    pieces.push(text.slice(start, at));
    start = at + match[0].length;
  }
  pieces.push(text.slice(start));
  return pieces;
}

/** "then" / "and then" / "after that" between clauses, and sequence words opening a sentence. */
const SEQUENCE =
  /(?:[.!?]\s+(?:and\s+)?(?:then|after\s+that|afterwards|next|finally|lastly)|,?\s+and\s+then|,\s*(?:then|after\s+that|afterwards)|\s+(?:then|after\s+that))\b[,:]?\s*/gi;
const CONDITION = /\b(?:if|when|whenever|unless|once)\b/i;

function cutAtSequenceWords(piece: string): string[] {
  const masked = maskQuoted(piece);
  const pieces: string[] = [];
  let start = 0;
  for (const match of masked.matchAll(SEQUENCE)) {
    const at = match.index ?? 0;
    const bareThen = /^,?\s*then\b/i.test(match[0]);
    // "if it rains then take an umbrella": the condition's own "then"
    if (bareThen && CONDITION.test(masked.slice(start, at))) continue;
    pieces.push(piece.slice(start, at));
    start = at + match[0].length;
  }
  pieces.push(piece.slice(start));
  return pieces;
}

/** Drops sequence words left at the edges ("First, ...", "... and") and closing punctuation. */
function clean(step: string): string {
  return step
    .trim()
    .replace(/^(?:(?:first(?:ly)?|then|and|next|finally|lastly|also)(?:[,:]\s*|\s+))+/i, '')
    .replace(/(?:\s+and)?[\s.,;:!]+$/i, '')
    .trim();
}
