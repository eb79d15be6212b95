/**
 * A small arithmetic evaluator for the built-in tools: + - * / ^, parentheses,
 * unary minus and decimals. A recursive-descent parser, never eval(): the text
 * comes from users.
 *
 *   expr   = term (('+' | '-') term)*
 *   term   = unary (('*' | '/') unary)*
 *   unary  = ('-' | '+') unary | power
 *   power  = atom ('^' unary)?            (right-associative; -2^2 = -4)
 *   atom   = number | '(' expr ')'
 */

/** `syntax`: the text is no expression; otherwise it is one whose value does not exist (1/0). */
export class ArithmeticError extends Error {
  constructor(message: string, readonly syntax = true) {
    super(message);
    this.name = 'ArithmeticError';
  }
}

type Token = { kind: 'number'; value: number } | { kind: 'op'; value: string };

const MAX_LENGTH = 500;

/** Typographic and spelled-out operators in plain ASCII: "3 × 4", "10 ÷ 2", "2 − 1", "2 x 3", "5 plus 2". */
export function normalizeOperators(text: string): string {
  return text
    .replace(/[×✕∗·]/g, '*')
    .replace(/[÷∕]/g, '/')
    .replace(/[−–]/g, '-')
    .replace(/\*\*/g, '^')
    .replace(/(\d|\))\s*[xX]\s*(?=[\d(])/g, '$1*')
    .replace(/\bmultiplied\s+by\b/gi, '*')
    .replace(/\bdivided\s+by\b/gi, '/')
    .replace(/\bto\s+the\s+power\s+of\b/gi, '^')
    .replace(/\bplus\b/gi, '+')
    .replace(/\bminus\b/gi, '-')
    .replace(/\btimes\b/gi, '*');
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/^()]))/y;
  let position = 0;
  while (position < expression.length) {
    if (/^\s*$/.test(expression.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(expression);
    if (!match) throw new ArithmeticError(`unexpected '${expression.slice(position).trim()[0]}'`);
    if (match[1] !== undefined) tokens.push({ kind: 'number', value: Number(match[1]) });
    else tokens.push({ kind: 'op', value: match[2] });
    position = pattern.lastIndex;
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new ArithmeticError('empty expression');
    const value = this.expr();
    if (this.index < this.tokens.length) throw new ArithmeticError('unexpected input after the expression');
    return value;
  }

  private peekOp(): string | null {
    const token = this.tokens[this.index];
    return token?.kind === 'op' ? token.value : null;
  }

  private expr(): number {
    let value = this.term();
    for (let op = this.peekOp(); op === '+' || op === '-'; op = this.peekOp()) {
      this.index++;
      const right = this.term();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  private term(): number {
    let value = this.unary();
    for (let op = this.peekOp(); op === '*' || op === '/'; op = this.peekOp()) {
      this.index++;
      const right = this.unary();
      if (op === '/' && right === 0) throw new ArithmeticError('division by zero', false);
      value = op === '*' ? value * right : value / right;
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp();
    if (op === '-' || op === '+') {
      this.index++;
      const value = this.unary();
      return op === '-' ? -value : value;
    }
    return this.power();
  }

  private power(): number {
    const base = this.atom();
    if (this.peekOp() !== '^') return base;
    this.index++;
    return base ** this.unary();
  }

  private atom(): number {
    const token = this.tokens[this.index++];
    if (token === undefined) throw new ArithmeticError('expression ends too early');
    if (token.kind === 'number') return token.value;
    if (token.value !== '(') throw new ArithmeticError(`unexpected '${token.value}'`);
    const value = this.expr();
    if (this.tokens[this.index++]?.value !== ')') throw new ArithmeticError("missing ')'");
    return value;
  }
}

/** The value of an expression such as "2 + 3 * (4 - 1) ^ 2"; throws ArithmeticError when it is not one. */
export function evaluate(expression: string): number {
  if (expression.length > MAX_LENGTH) throw new ArithmeticError(`expression longer than ${MAX_LENGTH} characters`);
  const value = new Parser(tokenize(normalizeOperators(expression))).parse();
  if (!Number.isFinite(value)) throw new ArithmeticError('the result is too large', false);
  return value;
}

/** 12 significant digits: 0.1 + 0.2 reads 0.3, not 0.30000000000000004. */
export function formatNumber(value: number): string {
  const rounded = Number(value.toPrecision(12));
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/**
 * The arithmetic expression inside a sentence ("what is 2 + 2?" → "2 + 2"):
 * the longest run of numbers, operators and parentheses that holds at least
 * one operator between two operands and parses. Null when there is none.
 */
export function findExpression(text: string): string | null {
  const normalized = normalizeOperators(text);
  const candidates = normalized.match(/[-+(\d.][\d\s.+\-*/^()]*/g) ?? [];
  let best: string | null = null;
  for (const raw of candidates) {
    const candidate = trimUnbalanced(raw.trim().replace(/[.\s]+$/, ''));
    if (!/[\d)]\s*[-+*/^]\s*[-+(\d.]/.test(candidate)) continue;
    if (/^\d{4}-\d{1,2}-\d{1,2}$/.test(candidate)) continue; // a date, not a subtraction
    try {
      evaluate(candidate);
    } catch (error) {
      // "what is 1/0" is arithmetic all the same: the tool answers with the error
      if (!(error instanceof ArithmeticError && !error.syntax)) continue;
    }
    if (best === null || candidate.length > best.length) best = candidate;
  }
  return best;
}

/** Drops a trailing ')' or a leading '(' that a sentence's own parentheses left behind. */
function trimUnbalanced(candidate: string): string {
  let text = candidate;
  const depth = (s: string) => [...s].reduce((d, c) => d + (c === '(' ? 1 : c === ')' ? -1 : 0), 0);
  while (depth(text) < 0 && text.endsWith(')')) text = text.slice(0, -1).trimEnd();
  while (depth(text) > 0 && text.startsWith('(')) text = text.slice(1).trimStart();
  return text;
}
