import { ArithmeticError, evaluate, findExpression, formatNumber } from './arithmetic';
import { createBuiltInTools, findTool, type Tool } from './built-in-tools';
import { convert, findConversion } from './units';

const NOW = new Date('2026-03-04T05:06:07.890Z');
const tools = createBuiltInTools(() => NOW);
const tool = (name: string): Tool => {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
};
/** The tool that takes the step and its result. */
const run = (step: string): [string | null, string | null] => {
  const t = findTool(tools, step);
  return [t?.name ?? null, t ? t.run(step) : null];
};

describe('evaluate (arithmetic without eval)', () => {
  it.each<[string, number]>([
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 / 4', 2.5],
    ['2 ^ 3 ^ 2', 512],
    ['-2 ^ 2', -4],
    ['(-2) ^ 2', 4],
    ['--3', 3],
    ['1.5 * .5', 0.75],
    ['8 − 3', 5],
    ['6 × 7', 42],
    ['9 ÷ 3', 3],
    ['2 x 3', 6],
    ['2 ** 10', 1024],
    ['7 plus 3 times 2', 13],
    ['2 to the power of 5', 32],
    ['100 divided by 8', 12.5],
  ])('%s = %d', (expression, value) => {
    expect(evaluate(expression)).toBe(value);
  });

  it.each(['', '1 +', '(1 + 2', '1 2', 'abc', '2 * * 3', 'process.exit(1)', '1; 2'])('refuses %j', (expression) => {
    expect(() => evaluate(expression)).toThrow(ArithmeticError);
  });

  it('refuses division by zero and overflow as math errors, not syntax errors', () => {
    expect(() => evaluate('1 / 0')).toThrow(expect.objectContaining({ message: 'division by zero', syntax: false }));
    expect(() => evaluate('10 ^ 400')).toThrow(expect.objectContaining({ syntax: false }));
  });

  it('formats results to 12 significant digits', () => {
    expect(formatNumber(evaluate('0.1 + 0.2'))).toBe('0.3');
    expect(formatNumber(evaluate('1 / 3'))).toBe('0.333333333333');
    expect(formatNumber(-0)).toBe('0');
  });

  it('finds the expression in a sentence', () => {
    expect(findExpression('what is 12 * (3 + 1)?')).toBe('12 * (3 + 1)');
    expect(findExpression('please compute 2+2.')).toBe('2+2');
    expect(findExpression('(add 2 + 3)')).toBe('2 + 3');
    expect(findExpression('I have 3 apples')).toBeNull();
    expect(findExpression('the meeting is on 2024-01-05')).toBeNull();
  });
});

describe('unit conversion', () => {
  it.each<[string, string]>([
    ['convert 5 km to miles', '5 km = 3.10686 mi'],
    ['10 miles in kilometers', '10 mi = 16.0934 km'],
    ['72 kg into lbs', '72 kg = 158.733 lb'],
    ['how many pounds are in 3 kg', '3 kg = 6.61387 lb'],
    ['1 lb to kg', '1 lb = 0.453592 kg'],
    ['100 °C to °F', '100 °C = 212 °F'],
    ['convert -40 fahrenheit to celsius', '-40 °F = -40 °C'],
    ['98.6 F to C', '98.6 °F = 37 °C'],
    ['1,500 km to mi', '1500 km = 932.057 mi'],
  ])('%s', (step, result) => {
    expect(run(step)).toEqual(['convert_units', result]);
  });

  it('refuses units of different kinds and unknown units', () => {
    expect(findConversion('5 km to kg')).toBeNull();
    expect(findConversion('5 km to furlongs')).toBeNull();
    expect(findConversion('I ran 5 km in 30 minutes')).toBeNull();
  });

  it('round-trips', () => {
    expect(convert({ value: convert({ value: 42, from: 'km', to: 'mi' }), from: 'mi', to: 'km' })).toBeCloseTo(42, 10);
  });
});

describe('built-in tools', () => {
  it('computes arithmetic in a step', () => {
    expect(run('What is 2 × (3 + 4)?')).toEqual(['arithmetic', '2 * (3 + 4) = 14']);
    expect(findTool(tools, 'what is 1/0')?.name).toBe('arithmetic');
    expect(() => tool('arithmetic').run('what is 1/0')).toThrow('division by zero');
  });

  it('tells the current date and time in UTC from the injected clock', () => {
    const answer = '2026-03-04T05:06:07Z (Wednesday, 4 March 2026, 05:06 UTC)';
    for (const step of ['What time is it?', "what's the date today", 'tell me the current time', "today's date", 'what day is it']) {
      expect(run(step)).toEqual(['datetime', answer]);
    }
    expect(findTool(tools, "What's the time complexity of quicksort?")).toBeNull();
    expect(findTool(tools, 'what is the weather today')).toBeNull();
  });

  it('counts words and characters of the quoted text only', () => {
    expect(run('count the words in "to be or not to be"')).toEqual(['count', '6 words']);
    expect(run('how many characters are in \'héllo\'')).toEqual(['count', '5 characters']);
    expect(run('word and character count of "a bc"')).toEqual(['count', '2 words, 4 characters']);
    expect(run('count “one”')).toEqual(['count', '1 word, 3 characters']);
  });

  it('changes case and reverses quoted text', () => {
    expect(run('uppercase "Hello, World"')).toEqual(['uppercase', 'HELLO, WORLD']);
    expect(run("put 'MiXeD' in lower case")).toEqual(['lowercase', 'mixed']);
    expect(run('reverse "stressed"')).toEqual(['reverse', 'desserts']);
    expect(run('reverse "a😀b"')).toEqual(['reverse', 'b😀a']);
  });

  it('leaves apostrophes alone and needs a quoted text for text tools', () => {
    expect(findTool(tools, "don't reverse it, it's fine")).toBeNull();
    expect(findTool(tools, 'uppercase everything')).toBeNull();
  });

  it('reads only the instruction, not the quoted text, to choose a tool', () => {
    expect(run('reverse "1 + 1"')).toEqual(['reverse', '1 + 1']);
    expect(findTool(tools, 'say "2 + 2" loudly')).toBeNull();
    expect(run('uppercase "reverse me"')).toEqual(['uppercase', 'REVERSE ME']);
  });

  it.each([
    'What is 2 × (3 + 4)?',
    'convert 5 km to miles',
    'what time is it?',
    'count the words in "a b c"',
    'how many letters in "abc"',
    'count "a \\"quoted\\" word"',
    'uppercase \'say "hi"\'',
    "put 'MiXeD' in lower case",
    'reverse "stressed"',
  ])('runs the same from its canonical input as from the step: %s', (step) => {
    const t = findTool(tools, step);
    expect(t).not.toBeNull();
    const input = t!.input(step);
    expect(findTool(tools, input)?.name).toBe(t!.name);
    expect(t!.run(input)).toBe(t!.run(step));
  });

  it('gives every tool a distinct name and a description', () => {
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools.every((t) => t.description.length > 0)).toBe(true);
  });
});
