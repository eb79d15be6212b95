/**
 * The agent's built-in tools: the steps it can really do without a language
 * model. Each tool reads a step's text, says whether it can do it,
 * gives the step's canonical input (what a recipe stores as the action's
 * inputs) and runs. `run(input(step))` equals `run(step)`, so a saved recipe
 * replays from its inputs alone.
 *
 * Order matters: the first tool that matches takes the step. Text tools come
 * first (their quoted text may hold digits or operators), arithmetic last
 * (it matches any sentence holding an expression).
 */
import { evaluate, findExpression, formatNumber } from './arithmetic';
import { maskQuoted, quote, quotedText } from './quoted-text';
import { conversionInput, describeConversion, findConversion } from './units';

export interface Tool {
  readonly name: string;
  /** one line for people: what the tool does */
  readonly description: string;
  matches(step: string): boolean;
  /** the canonical input of a step the tool matches; run() accepts it */
  input(step: string): string;
  /** the step's result; only called for a step that matches */
  run(step: string): string;
}

export type ToolName = 'count' | 'uppercase' | 'lowercase' | 'reverse' | 'convert_units' | 'datetime' | 'arithmetic';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function required<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`the step has no ${what}`);
  return value;
}

/** The step's words outside its quoted text: what it asks for, not what it quotes. */
function instruction(step: string): string {
  return maskQuoted(step);
}

function quoted(step: string): string {
  return required(quotedText(step), 'quoted text');
}

/** A tool that works on a step's quoted text when the step asks for it with one of its words. */
function textTool(name: ToolName, description: string, asks: RegExp, transform: (text: string) => string): Tool {
  return {
    name,
    description,
    matches: (step) => asks.test(instruction(step)) && quotedText(step) !== null,
    input: (step) => `${name} ${quote(quoted(step))}`,
    run: (step) => transform(quoted(step)),
  };
}

const ASKS_WORDS = /\bwords?\b/i;
const ASKS_CHARS = /\b(characters?|chars?|letters?)\b/i;

function countTool(): Tool {
  const asks = /\b(count|how many|number of)\b.*\b(words?|characters?|chars?|letters?)\b|\b(word|character|char|letter)\s+count\b|^count\b/i;
  /** words, characters or both: what the step names, both when it names neither */
  const wanted = (step: string) => {
    const words = ASKS_WORDS.test(instruction(step));
    const chars = ASKS_CHARS.test(instruction(step));
    return { words: words || !chars, chars: chars || !words };
  };
  return {
    name: 'count',
    description: 'word and character count of a quoted text',
    matches: (step) => asks.test(instruction(step)) && quotedText(step) !== null,
    input(step) {
      const { words, chars } = wanted(step);
      return `count ${[words ? 'words' : '', chars ? 'characters' : ''].filter(Boolean).join(' and ')} ${quote(quoted(step))}`;
    },
    run(step) {
      const text = quoted(step);
      const { words, chars } = wanted(step);
      const w = text.split(/\s+/).filter(Boolean).length;
      const c = Array.from(text).length;
      const parts = [words ? `${w} word${w === 1 ? '' : 's'}` : '', chars ? `${c} character${c === 1 ? '' : 's'}` : ''];
      return parts.filter(Boolean).join(', ');
    },
  };
}

function datetimeTool(clock: () => Date): Tool {
  // asks for the date or time itself: "what's the time complexity of..." does not
  const asks =
    /\b(?:current|today'?s)\s+(?:date|time|day)\b|\bwhat\s+(?:time|day|date)\s+is\s+it\b|\bwhat(?:'s|\s+is)\s+(?:the\s+)?(?:current\s+)?(?:date|time|day)(?:\s+(?:now|today|in\s+utc))?\s*(?:[?.!,;]|$)|\b(?:date|time)\s+(?:now|today)\b/i;
  return {
    name: 'datetime',
    description: 'the current date and time in UTC',
    matches: (step) => asks.test(instruction(step)),
    input: () => 'current date and time',
    run() {
      const now = clock();
      const iso = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const hh = String(now.getUTCHours()).padStart(2, '0');
      const mm = String(now.getUTCMinutes()).padStart(2, '0');
      return `${iso} (${WEEKDAYS[now.getUTCDay()]}, ${now.getUTCDate()} ${MONTHS[now.getUTCMonth()]} ${now.getUTCFullYear()}, ${hh}:${mm} UTC)`;
    },
  };
}

function convertTool(): Tool {
  return {
    name: 'convert_units',
    description: 'unit conversion: km↔mi, kg↔lb, °C↔°F',
    matches: (step) => findConversion(instruction(step)) !== null,
    input: (step) => conversionInput(required(findConversion(instruction(step)), 'conversion')),
    run: (step) => describeConversion(required(findConversion(instruction(step)), 'conversion')),
  };
}

function arithmeticTool(): Tool {
  return {
    name: 'arithmetic',
    description: 'arithmetic: + − × ÷ ^, parentheses and decimals',
    matches: (step) => findExpression(instruction(step)) !== null,
    input: (step) => required(findExpression(instruction(step)), 'expression'),
    run(step) {
      const expression = required(findExpression(instruction(step)), 'expression');
      return `${expression} = ${formatNumber(evaluate(expression))}`;
    },
  };
}

/** The registry, in matching order. `clock` gives "now" to the date/time tool (tests pin it). */
export function createBuiltInTools(clock: () => Date): readonly Tool[] {
  return [
    countTool(),
    textTool('uppercase', 'a quoted text in upper case', /\b(upper\s*-?\s*case|all\s+caps|capitali[sz]e|uppercase)\b|^uppercase\b/i, (t) =>
      t.toUpperCase(),
    ),
    textTool('lowercase', 'a quoted text in lower case', /\b(lower\s*-?\s*case|lowercase)\b|^lowercase\b/i, (t) => t.toLowerCase()),
    textTool('reverse', 'a quoted text reversed', /\b(reverse|reversed|backwards?)\b/i, (t) => Array.from(t).reverse().join('')),
    convertTool(),
    datetimeTool(clock),
    arithmeticTool(),
  ];
}

/** The first tool that can do the step, or null when the step needs a language model. */
export function findTool(tools: readonly Tool[], step: string): Tool | null {
  return tools.find((tool) => tool.matches(step)) ?? null;
}
