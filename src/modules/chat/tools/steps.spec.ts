import { createBuiltInTools } from './built-in-tools';
import { decompose, splitSteps } from './steps';

const tools = createBuiltInTools(() => new Date());

describe('splitSteps', () => {
  it.each<[string, string, string[]]>([
    ['a numbered list', '1. Convert 5 km to miles\n2) compute 2 + 2\n3. write a haiku', ['Convert 5 km to miles', 'compute 2 + 2', 'write a haiku']],
    ['a bulleted list under a preamble', 'Please do this:\n- reverse "abc"\n* uppercase "x"\n• tell a joke\nThanks!', ['reverse "abc"', 'uppercase "x"', 'tell a joke']],
    ['list items with indented continuation lines', '1. write a letter\n   to my landlord\n2. count the words in "a b"', ['write a letter to my landlord', 'count the words in "a b"']],
    ['semicolons', 'compute 1+1; reverse "ab"; tell a joke', ['compute 1+1', 'reverse "ab"', 'tell a joke']],
    ['"then" and "and then"', 'convert 5 km to mi then compute 3*3 and then tell me a story', ['convert 5 km to mi', 'compute 3*3', 'tell me a story']],
    ['", then" and "after that"', 'Find a recipe, then buy the ingredients. After that, cook dinner.', ['Find a recipe', 'buy the ingredients', 'cook dinner']],
    ['sentence-opening sequence words', 'First, plan the trip. Then book a hotel. Finally pack.', ['plan the trip', 'book a hotel', 'pack']],
    ['a single sentence', 'Write a poem about the sea.', ['Write a poem about the sea']],
    ['several sentences without a sequence word', 'I like tea. Tell me about green tea.', ['I like tea. Tell me about green tea']],
    ['a condition\'s own "then"', 'If it rains then take an umbrella', ['If it rains then take an umbrella']],
    ['quoted text with ; and then', 'reverse "a; then b" and then uppercase \'x; y\'', ['reverse "a; then b"', "uppercase 'x; y'"]],
    ['decimals are not sentence ends', 'convert 3.5 kg to lb. Then compute 1.5 * 2', ['convert 3.5 kg to lb', 'compute 1.5 * 2']],
    ['Windows line endings', '1. a\r\n2. b', ['a', 'b']],
  ])('splits %s', (_case, prompt, steps) => {
    expect(splitSteps(prompt)).toEqual(steps);
  });

  it('gives no step for an empty or blank prompt', () => {
    expect(splitSteps('')).toEqual([]);
    expect(splitSteps('  \n\t ')).toEqual([]);
  });

  it('keeps a prompt that is only punctuation as one step rather than none', () => {
    expect(splitSteps('...')).toEqual(['...']);
  });

  it('caps the number of steps', () => {
    const prompt = Array.from({ length: 80 }, (_, i) => `- step ${i}`).join('\n');
    expect(splitSteps(prompt)).toHaveLength(50);
  });
});

describe('decompose', () => {
  it('plans each step with its tool and canonical input, in order', () => {
    expect(decompose('1. What is 2 × (3 + 4)?\n2. reverse "stressed"\n3. Convert 10 km to miles\n4. Write a sonnet', tools)).toEqual([
      { index: 0, text: 'What is 2 × (3 + 4)?', tool: 'arithmetic', input: '2 * (3 + 4)' },
      { index: 1, text: 'reverse "stressed"', tool: 'reverse', input: 'reverse "stressed"' },
      { index: 2, text: 'Convert 10 km to miles', tool: 'convert_units', input: '10 km to mi' },
      { index: 3, text: 'Write a sonnet', tool: null, input: 'Write a sonnet' },
    ]);
  });

  it('is deterministic', () => {
    const prompt = 'count the words in "a b c"; what time is it? then 2^8';
    expect(decompose(prompt, tools)).toEqual(decompose(prompt, tools));
  });
});
