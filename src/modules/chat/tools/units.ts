/**
 * Unit conversion for the built-in tools: km↔mi, kg↔lb, °C↔°F. Few units on
 * purpose: each one the tools name must be converted right, and anything
 * else is a step that needs a language model.
 */
import { formatNumber } from './arithmetic';

export type Unit = 'km' | 'mi' | 'kg' | 'lb' | '°C' | '°F';

/** Spellings of each unit, longest first so that "kilometers" wins over "km"-like prefixes. */
const ALIASES: [RegExp, Unit][] = [
  [/^(?:kilomet(?:er|re)s?|kms?)$/i, 'km'],
  [/^(?:miles?|mi)$/i, 'mi'],
  [/^(?:kilo(?:gram)?s?|kgs?)$/i, 'kg'],
  [/^(?:pounds?|lbs?)$/i, 'lb'],
  [/^(?:°\s*c|º\s*c|(?:degrees?\s+)?(?:celsius|centigrade|c))$/i, '°C'],
  [/^(?:°\s*f|º\s*f|(?:degrees?\s+)?(?:fahrenheit|f))$/i, '°F'],
];

const UNIT = String.raw`(?:kilomet(?:er|re)s?|kms?|miles?|mi|kilo(?:gram)?s?|kgs?|pounds?|lbs?|[°º]\s*[cf]|(?:degrees?\s+)?(?:celsius|centigrade|fahrenheit)|degrees?\s+[cf]|[cf])`;
/** a decimal, with optional thousands separators ("1,500.5"); not the tail of a longer number */
const NUMBER = String.raw`(?<![\d.,])(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)`;
/** "5 km to miles", "convert 100 °F into celsius", "72 kg in lb" */
const FORWARD = new RegExp(String.raw`${NUMBER}\s*(${UNIT})\s+(?:to|in|into|as)\s+(${UNIT})(?![\w])`, 'i');
/** "how many miles is 5 km", "how many pounds are in 3 kg" */
const QUESTION = new RegExp(String.raw`how\s+many\s+(${UNIT})\s+(?:is|are|in|make)\s+(?:in\s+)?${NUMBER}\s*(${UNIT})(?![\w])`, 'i');

export interface Conversion {
  value: number;
  from: Unit;
  to: Unit;
}

export function parseUnit(text: string): Unit | null {
  const trimmed = text.trim();
  return ALIASES.find(([pattern]) => pattern.test(trimmed))?.[1] ?? null;
}

/** The conversion a sentence asks for, or null when it asks for none this module can do. */
export function findConversion(text: string): Conversion | null {
  const forward = FORWARD.exec(text);
  const question = forward ? null : QUESTION.exec(text);
  const [value, fromText, toText] = forward
    ? [forward[1], forward[2], forward[3]]
    : question
      ? [question[2], question[3], question[1]]
      : [null, null, null];
  if (value === null || fromText === null || toText === null) return null;
  const from = parseUnit(fromText);
  const to = parseUnit(toText);
  if (from === null || to === null || dimension(from) !== dimension(to)) return null;
  return { value: Number(value.replace(/,/g, '')), from, to };
}

function dimension(unit: Unit): 'length' | 'mass' | 'temperature' {
  switch (unit) {
    case 'km':
    case 'mi':
      return 'length';
    case 'kg':
    case 'lb':
      return 'mass';
    case '°C':
    case '°F':
      return 'temperature';
    default:
      return unreachable(unit);
  }
}

const KM_PER_MI = 1.609344; // international mile, exact
const KG_PER_LB = 0.45359237; // avoirdupois pound, exact

/** The value in base units (km, kg, °C). */
function toBase(value: number, unit: Unit): number {
  switch (unit) {
    case 'km':
    case 'kg':
    case '°C':
      return value;
    case 'mi':
      return value * KM_PER_MI;
    case 'lb':
      return value * KG_PER_LB;
    case '°F':
      return ((value - 32) * 5) / 9;
    default:
      return unreachable(unit);
  }
}

function fromBase(value: number, unit: Unit): number {
  switch (unit) {
    case 'km':
    case 'kg':
    case '°C':
      return value;
    case 'mi':
      return value / KM_PER_MI;
    case 'lb':
      return value / KG_PER_LB;
    case '°F':
      return (value * 9) / 5 + 32;
    default:
      return unreachable(unit);
  }
}

export function convert({ value, from, to }: Conversion): number {
  return fromBase(toBase(value, from), to);
}

/** "5 km = 3.10686 mi": six significant digits, enough for everyday answers. */
export function describeConversion(conversion: Conversion): string {
  const result = Number(convert(conversion).toPrecision(6));
  return `${formatNumber(conversion.value)} ${conversion.from} = ${formatNumber(result)} ${conversion.to}`;
}

/** The canonical text of a conversion, which findConversion reads back: "5 km to mi". */
export function conversionInput(conversion: Conversion): string {
  return `${formatNumber(conversion.value)} ${conversion.from} to ${conversion.to}`;
}

function unreachable(value: never): never {
  throw new Error(`unexpected unit ${String(value)}`);
}
