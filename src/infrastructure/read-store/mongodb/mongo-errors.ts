import { DuplicateKeyError } from '../read-store.port';

/** MongoDB's E11000. */
export const DUPLICATE_KEY_CODE = 11000;
/** MongoDB's NamespaceNotFound (mongo-java-server answers "ns not found" without a code). */
const NAMESPACE_NOT_FOUND_CODE = 26;

interface ServerErrorLike {
  code?: unknown;
  keyValue?: unknown;
  errmsg?: unknown;
  message?: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

export function isDuplicateKeyCode(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as ServerErrorLike).code === DUPLICATE_KEY_CODE;
}

export function isNamespaceNotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, errmsg, message } = error as ServerErrorLike;
  if (code === NAMESPACE_NOT_FOUND_CODE) return true;
  return [errmsg, message].some((text) => typeof text === 'string' && /\bns not found\b/i.test(text));
}

/**
 * Reads the key out of an E11000 message, `... dup key: { _id: "a" }` or
 * `dup key: { tenant: "t", email: null }` (MongoDB's and mongo-java-server's
 * shell-like notation: unquoted field names, JSON-like values, ObjectId('..')).
 * Returns null when the message has no readable key.
 */
export function parseDuplicateKey(message: string): Record<string, unknown> | null {
  const start = message.indexOf('dup key:');
  if (start < 0) return null;
  const parser = new ShellValueParser(message, start + 'dup key:'.length);
  try {
    const value = parser.parseValue();
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** The port's DuplicateKeyError for a driver error with code 11000. */
export function toDuplicateKeyError(collection: string, error: ServerErrorLike): DuplicateKeyError {
  if (isPlainObject(error.keyValue)) return new DuplicateKeyError(collection, { ...error.keyValue });
  const text = typeof error.errmsg === 'string' ? error.errmsg : typeof error.message === 'string' ? error.message : '';
  return new DuplicateKeyError(collection, parseDuplicateKey(text) ?? {});
}

/** What callers of the port see: DuplicateKeyError for E11000, anything else as the driver raised it. */
export function mapDriverError(collection: string, error: unknown): unknown {
  if (error instanceof DuplicateKeyError) return error;
  if (isDuplicateKeyCode(error)) return toDuplicateKeyError(collection, error as ServerErrorLike);
  return error;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };

/** A small recursive-descent reader for the shell notation in E11000 messages. */
class ShellValueParser {
  constructor(
    private readonly text: string,
    private position: number,
  ) {}

  parseValue(): unknown {
    this.skipSpaces();
    const char = this.text[this.position];
    if (char === '{') return this.parseObject();
    if (char === '[') return this.parseArray();
    if (char === '"' || char === "'") return this.parseString(char);
    return this.parseBareword();
  }

  private parseObject(): Record<string, unknown> {
    this.expect('{');
    const result: Record<string, unknown> = {};
    this.skipSpaces();
    if (this.peek() === '}') {
      this.position++;
      return result;
    }
    for (;;) {
      this.skipSpaces();
      const key = this.peek() === '"' || this.peek() === "'" ? this.parseString(this.peek()) : this.parseKey();
      this.skipSpaces();
      this.expect(':');
      result[key] = this.parseValue();
      this.skipSpaces();
      const next = this.text[this.position++];
      if (next === '}') return result;
      if (next !== ',') throw new SyntaxError(`unexpected ${next ?? 'end'} in dup key`);
    }
  }

  private parseArray(): unknown[] {
    this.expect('[');
    const result: unknown[] = [];
    this.skipSpaces();
    if (this.peek() === ']') {
      this.position++;
      return result;
    }
    for (;;) {
      result.push(this.parseValue());
      this.skipSpaces();
      const next = this.text[this.position++];
      if (next === ']') return result;
      if (next !== ',') throw new SyntaxError(`unexpected ${next ?? 'end'} in dup key`);
    }
  }

  /** Field names are printed unquoted, dots included (`owner.id`); old servers print an empty name. */
  private parseKey(): string {
    const start = this.position;
    while (this.position < this.text.length && this.text[this.position] !== ':') this.position++;
    return this.text.slice(start, this.position).trim();
  }

  private parseString(quote: string): string {
    this.expect(quote);
    let result = '';
    while (this.position < this.text.length) {
      const char = this.text[this.position++];
      if (char === quote) return result;
      if (char !== '\\') {
        result += char;
        continue;
      }
      const escaped = this.text[this.position++] ?? '';
      const hex = this.text.slice(this.position, this.position + 4);
      if (escaped === 'u' && /^[0-9a-fA-F]{4}$/.test(hex)) {
        result += String.fromCharCode(parseInt(hex, 16));
        this.position += 4;
      } else {
        result += ESCAPES[escaped] ?? escaped;
      }
    }
    throw new SyntaxError('unterminated string in dup key');
  }

  /** numbers, true/false/null, and wrappers such as ObjectId('...') or new Date(123) */
  private parseBareword(): unknown {
    const start = this.position;
    let depth = 0;
    while (this.position < this.text.length) {
      const char = this.text[this.position];
      if (char === '(') depth++;
      else if (char === ')') depth--;
      else if (depth === 0 && (char === ',' || char === '}' || char === ']')) break;
      this.position++;
    }
    const word = this.text.slice(start, this.position).trim();
    if (word === '') throw new SyntaxError('missing value in dup key');
    if (word === 'null' || word === 'undefined') return null;
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (/^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(word)) return Number(word);
    const wrapped = /^(?:new\s+)?\w+\(\s*(['"]?)(.*?)\1\s*\)$/.exec(word);
    if (wrapped) {
      const inner = wrapped[2];
      return wrapped[1] === '' && /^-?\d+(\.\d+)?$/.test(inner) ? Number(inner) : inner;
    }
    return word;
  }

  private skipSpaces(): void {
    while (this.position < this.text.length && /\s/.test(this.text[this.position])) this.position++;
  }

  private peek(): string {
    return this.text[this.position];
  }

  private expect(char: string): void {
    if (this.text[this.position] !== char) throw new SyntaxError(`expected ${char} in dup key`);
    this.position++;
  }
}
