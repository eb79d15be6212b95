import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError } from '../../aggregates/shared/domain-error';
import { InRange, IsName, nameOf, numberIn } from './body-fields';

class Named {
  @IsName()
  name?: unknown;
}

const dto = (name: unknown) => plainToInstance(Named, { name });

describe('names', () => {
  it('given a decomposed accent, then the name is NFC', () => {
    expect(nameOf('Jose\u0301', 'display_name')).toBe('Jos\u00e9');
  });

  it.each([
    ['right-to-left text', 'محمد'],
    ['an emoji sequence with zero-width joiners', '👩‍💻 dev'],
    ['a Persian name with a zero-width non-joiner', 'می‌خواهم'],
    ['a flag emoji of tag characters', '🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'],
    ['plain ASCII with spaces', 'Ada Lovelace'],
  ])('given %s, then the name is taken', (_what, name) => {
    expect(nameOf(name, 'display_name')).toBe(name.normalize('NFC'));
  });

  it.each([
    ['a right-to-left override', 'abc\u202Etxt.exe'],
    ['a bidi isolate', '\u2066x\u2069'],
    ['a left-to-right mark', 'a\u200Eb'],
    ['an Arabic letter mark', 'a\u061Cb'],
    ['a zero-width space', 'ad\u200Bmin'],
    ['a byte order mark', '\uFEFFadmin'],
    ['a NUL', 'a\u0000b'],
    ['a newline', 'a\nb'],
    ['a tab', 'a\tb'],
    ['a DEL', 'a\u007Fb'],
    ['a C1 control', 'a\u0085b'],
    ['a line separator', 'a\u2028b'],
  ])('given %s, then 400 naming the field', (_what, name) => {
    expect(() => nameOf(name, 'guest_name')).toThrow(new DomainError('invalid', 'guest_name must not contain control, bidi or invisible characters'));
  });

  it('given a DTO field with @IsName and a decomposed accent, then it is NFC after the transform and valid', () => {
    const instance = dto('Rene\u0301e');
    expect(instance.name).toBe('Ren\u00e9e');
    expect(validateSync(instance)).toEqual([]);
  });

  it('given a DTO field with @IsName and a bidi override, then the error names the field', () => {
    const errors = validateSync(dto('x\u202Ey'));
    expect(errors[0].constraints).toEqual({ isName: 'name must not contain control, bidi or invisible characters' });
  });

  it('given a DTO field with @IsName and a number, then the rule leaves it to the type check', () => {
    expect(validateSync(dto(5))).toEqual([]);
  });
});

class Figures {
  @InRange({ min: 0, max: 24 })
  hours?: unknown;

  @InRange({ min: 1, max: 10, integer: true })
  count?: unknown;
}

describe('number ranges', () => {
  it.each([
    ['1e308', 1e308],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['NaN', Number.NaN],
    ['below the minimum', -1],
    ['a numeric string', '5'],
    ['null', null],
  ])('given %s, then 400 naming the field and its range', (_what, value) => {
    expect(() => numberIn(value, 'hours', { min: 0, max: 24 })).toThrow(new DomainError('invalid', 'hours must be a number from 0 to 24'));
  });

  it('given the bounds themselves, then they are in range', () => {
    expect([numberIn(0, 'hours', { min: 0, max: 24 }), numberIn(24, 'hours', { min: 0, max: 24 })]).toEqual([0, 24]);
  });

  it('given a fraction for an integer range, then 400 saying integer', () => {
    expect(() => numberIn(1.5, 'count', { min: 1, max: 10, integer: true })).toThrow('count must be an integer from 1 to 10');
  });

  it('given DTO fields with @InRange out of range, then one message per field', () => {
    const errors = validateSync(plainToInstance(Figures, { hours: 'x', count: 11 }));
    expect(errors.map((e) => e.constraints)).toEqual([
      { inRange: 'hours must be a number from 0 to 24' },
      { inRange: 'count must be an integer from 1 to 10' },
    ]);
  });
});
