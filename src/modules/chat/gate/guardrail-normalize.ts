/**
 * What the guardrail matches against: the prompt folded so that trivial
 * disguises do not slip past word rules. Every view is lowercase words made of
 * [a-z0-9], separated by single spaces, so the policy's patterns can be plain
 * word sequences.
 *
 * Steps, in order (why: each undoes one kind of disguise):
 * 1. NFKC: fullwidth ｓａｒｉｎ, ligatures, mathematical 𝐛𝐨𝐥𝐝 → plain letters.
 * 2. Homoglyphs: Cyrillic/Greek letters that look Latin (а, е, о, р, с, ο…).
 * 3. Accents: NFD, then drop combining marks (nérve, s̶a̶r̶i̶n̶).
 * 4. Invisible characters: zero-width spaces and joiners, soft hyphens, bidi
 *    controls (Unicode Cf) and Hangul fillers vanish; other punctuation becomes a space.
 * 5. Apostrophes vanish: "victim's" → "victims", "don't" → "dont".
 * 6. Spaced-out letters are joined: "r a n s o m w a r e", "s.a.r.i.n".
 * A second view also undoes leetspeak (r4ns0mw4r3, pa$$word) inside words
 * that contain a letter, and chat shorthand ("how 2", "can u"); numbers like
 * "port 8080" keep their digits.
 */

const HOMOGLYPHS: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ɡ: 'g',
  // Greek
  α: 'a', β: 'b', ε: 'e', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', ς: 's',
};
const HOMOGLYPH_PATTERN = new RegExp(`[${Object.keys(HOMOGLYPHS).join('')}]`, 'g');

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i', '|': 'l' };

/** whole words of chat shorthand, in the second view only */
const TEXTSPEAK: Record<string, string> = { '1': 'i', '2': 'to', '4': 'for', u: 'you', ur: 'your', r: 'are', pls: 'please', plz: 'please', wat: 'what' };

/** Hangul fillers render as blanks but are letters (Lo), so \p{Cf} misses them. */
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0]/gu;
/** Four or more single letters split by spaces or punctuation: "r a n s o m", "v-x-g-a-s". */
const SPACED_LETTERS = /(?<![a-z0-9])[a-z](?:[\s.\-_*·/]+[a-z](?![a-z0-9])){3,}/g;

/** The views of a prompt the policy is matched against (one or two distinct strings). */
export function normalizeForGuardrail(prompt: string): string[] {
  const folded = prompt
    .normalize('NFKC')
    .toLowerCase()
    .replace(HOMOGLYPH_PATTERN, (char) => HOMOGLYPHS[char])
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(INVISIBLE, '')
    .replace(/['’‘`´]/g, '');
  const plain = toWords(folded);
  const deleeted = toWords(
    folded.replace(/[a-z0-9@$!|]+/g, (word) => {
      if (word in TEXTSPEAK) return TEXTSPEAK[word]; // "h0w d0 1 …", "how 2 make", "can u"
      // a word's trailing "!" is punctuation, not an i
      return /[a-z]/.test(word) ? word.replace(/!+$/, '').replace(/[013457@$!|]/g, (char) => LEET[char]) : word;
    }),
  );
  return plain === deleeted ? [plain] : [plain, deleeted];
}

function toWords(text: string): string {
  return text
    .replace(SPACED_LETTERS, (run) => run.replace(/[^a-z]/g, ''))
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
