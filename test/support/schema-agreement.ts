/**
 * Proves that a hand-written reader (a `*.requests.ts` function) and the JSON
 * Schema the OpenAPI document shows for it agree: starting from a body both
 * accept, each field is set in turn to each value of a pool of candidates
 * (absent, null, blanks, strings, numbers, booleans, lists, objects, plus the
 * field's own edge cases) and the reader must accept exactly the bodies the
 * schema accepts. Every property of the schema is exercised.
 */
import Ajv2020 from 'ajv/dist/2020';
import { DomainError } from '../../src/aggregates/shared/domain-error';

export const ABSENT = Symbol('absent');
type Candidate = unknown;

const COMMON: Candidate[] = [
  ABSENT, null, '', ' ', 'abc', 'ABC', ' abc ', 'true', 'false', '12', '-3', '1.5', 'like', '*',
  0, 1, -1, 12, 1.5, 1e6, true, false, [], ['a'], [1], {}, { a: 1 }, 'x'.repeat(129), '0123456789abcdef',
];

export interface Agreement {
  /** a body the reader and the schema both accept */
  valid: Record<string, unknown>;
  /** more candidates for some fields, on top of the common pool */
  candidates?: Record<string, Candidate[]>;
}

export function expectReaderAgreesWithSchema(schema: Record<string, unknown>, reader: (body: unknown) => unknown, agreement: Agreement): void {
  const validate = new Ajv2020({ strict: false, allErrors: false }).compile(schema);
  const accepts = (body: unknown): boolean => {
    try {
      reader(body);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'invalid') return false;
      throw error;
    }
  };
  expect({ schema: validate(agreement.valid), reader: accepts(agreement.valid) }).toEqual({ schema: true, reader: true });
  const fields = Object.keys((schema as { properties: object }).properties);
  const disagreements: string[] = [];
  for (const field of fields) {
    for (const value of [...COMMON, ...(agreement.candidates?.[field] ?? [])]) {
      const body: Record<string, unknown> = { ...agreement.valid };
      if (value === ABSENT) delete body[field];
      else body[field] = value;
      const bySchema = validate(body);
      const byReader = accepts(body);
      if (bySchema !== byReader) {
        disagreements.push(`${field} = ${value === ABSENT ? '(absent)' : JSON.stringify(value)}: schema ${bySchema ? 'accepts' : 'refuses'}, reader ${byReader ? 'accepts' : 'refuses'}`);
      }
    }
  }
  expect(disagreements).toEqual([]);
}
