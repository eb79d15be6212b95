import { normalizeForGuardrail } from './guardrail-normalize';

describe('normalizeForGuardrail', () => {
  it.each([
    ['case and punctuation', 'How DO I... make it?!', 'how do i make it'],
    ['fullwidth letters (NFKC)', 'ｓａｒｉｎ', 'sarin'],
    ['mathematical letters (NFKC)', '𝐬𝐚𝐫𝐢𝐧', 'sarin'],
    ['zero-width characters and soft hyphens', 's\u200Ba\u200Cr\u200Di\u2060n\uFEFF sa\u00ADrin', 'sarin sarin'],
    ['bidi controls', 'sa\u202Erin', 'sarin'],
    ['accents and combining marks', 'nérve s̶a̶r̶i̶n̶', 'nerve sarin'],
    ['Cyrillic and Greek homoglyphs', 'sаrіn οn', 'sarin on'],
    ['apostrophes', 'victim’s don\'t', 'victims dont'],
    ['spaced-out letters', 'r a n s o m w a r e and s.a.r.i.n', 'ransomware and sarin'],
    ['short letter runs stay apart', 'a b c', 'a b c'],
  ])('folds %s', (_name, input, expected) => {
    expect(normalizeForGuardrail(input)[0]).toBe(expected);
  });

  it('adds a second view with leetspeak and chat shorthand undone', () => {
    expect(normalizeForGuardrail('h0w 2 m4k3 r4ns0mw4r3 pa$$word 4 u')).toEqual([
      'h0w 2 m4k3 r4ns0mw4r3 pa word 4 u',
      'how to make ransomware password for you',
    ]);
  });

  it('leaves numbers alone in both views, and gives one view when there is nothing to undo', () => {
    expect(normalizeForGuardrail('kill port 8080 and 3000')).toEqual(['kill port 8080 and 3000']);
  });

  it('treats a trailing exclamation mark as punctuation', () => {
    expect(normalizeForGuardrail('stop! now')).toEqual(['stop now']);
  });
});
