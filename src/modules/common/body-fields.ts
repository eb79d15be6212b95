/**
 * Field readers for routes whose contract prescribes exact error texts and
 * check order (the encounter and core routes), where a list of class-validator
 * decorators would not state the order. Each throws a 400 DomainError.
 * The rule for names holds for both styles: `nameOf` here, `@IsName()` on a
 * DTO field.
 */
import { Transform } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';

export type Body = Record<string, unknown>;

export const invalid = (message: string): DomainError => new DomainError('invalid', message);

/** A body that is not a JSON object is 400; no body reads as `{}`. */
export function objectBody(body: unknown): Body {
  if (body === null || body === undefined) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('request body must be a JSON object');
  return body as Body;
}

/** JSON booleans or exactly the strings "true"/"false"; anything else is 400. */
export function flag(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw invalid(`${field} must be a boolean`);
}

/**
 * What a name shown to other people may not hold: control characters (Cc),
 * line and paragraph separators, and format characters (Cf: the bidi
 * controls U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C, zero-width
 * space U+200B, word joiner, BOM, soft hyphen, ...), except the zero-width
 * joiner and non-joiner (emoji sequences, Persian and Indic scripts) and the
 * tag characters of flag emoji.
 */
const NOT_IN_NAMES = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200C\u200D\u{E0020}-\u{E007F}])\p{Cf}/u;
export const NAME_RULE = 'must not contain control, bidi or invisible characters';

/** A name in NFC, or 400 naming the field when it holds a character names may not hold. */
export function nameOf(value: string, field: string): string {
  const name = value.normalize('NFC');
  if (NOT_IN_NAMES.test(name)) throw invalid(`${field} ${NAME_RULE}`);
  return name;
}

/** `nameOf` for a DTO field: the string is NFC-normalised before the other checks, then held to the rule (other types are left to them). */
export function IsName(): PropertyDecorator {
  const normalise = Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.normalize('NFC') : value));
  const rule = ValidateBy({
    name: 'isName',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || !NOT_IN_NAMES.test(value),
      defaultMessage: (args) => `${args?.property ?? 'name'} ${NAME_RULE}`,
    },
  });
  return (target, property) => {
    normalise(target, property);
    rule(target, property);
  };
}

/** A number field's documented range: finite, from `min` to `max`, a whole number when `integer`. */
export interface NumberRange {
  min: number;
  max: number;
  integer?: boolean;
}

function rangeText(field: string, range: NumberRange): string {
  return `${field} must be ${range.integer ? 'an integer' : 'a number'} from ${range.min} to ${range.max}`;
}

function inRange(value: unknown, range: NumberRange): value is number {
  return typeof value === 'number' && Number.isFinite(value) && (!range.integer || Number.isInteger(value)) && value >= range.min && value <= range.max;
}

/** The number, or 400 `<field> must be a number from <min> to <max>` (an integer, with `integer`). */
export function numberIn(value: unknown, field: string, range: NumberRange): number {
  if (!inRange(value, range)) throw invalid(rangeText(field, range));
  return value;
}

/** `numberIn` for a DTO field: one check and one message for the type and the range. */
export function InRange(range: NumberRange): PropertyDecorator {
  return ValidateBy({
    name: 'inRange',
    validator: {
      validate: (value: unknown) => inRange(value, range),
      defaultMessage: (args) => rangeText(args?.property ?? 'value', range),
    },
  });
}

/** The JSON Schema pattern of a value the readers trim before testing it against `pattern` (anchored ^...$). */
export function trimmedPattern(pattern: RegExp): string {
  return `^\\s*(?:${pattern.source.replace(/^\^/, '').replace(/\$$/, '')})\\s*$`;
}
