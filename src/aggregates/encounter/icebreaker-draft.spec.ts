import { draftIcebreaker, fitText, sharedTag, type DraftInput } from './icebreaker-draft';

const input = (fields: Partial<DraftInput> = {}): DraftInput => ({
  matchId: 'match_abc123',
  self: { avatar_style: 'studio_ghibli', vibe_tags: ['Hiking', 'chess'] },
  peer: { avatar_style: 'pixel_art', vibe_tags: ['jazz', ' hiking '] },
  maxChars: 220,
  ...fields,
});
const points = (text: string) => [...text].length;
const allTexts = (d: ReturnType<typeof draftIcebreaker>) => [d.draft, ...d.alt_drafts];
const matchIds = Array.from({ length: 40 }, (_, i) => `match_${i}`);

describe('icebreaker draft', () => {
  it('given the same match, when drafting twice, then the draft is the same', () => {
    expect(draftIcebreaker(input())).toEqual(draftIcebreaker(input()));
  });

  it('given different matches, when drafting, then the templates vary with the match id', () => {
    const drafts = new Set(matchIds.map((matchId) => draftIcebreaker(input({ matchId })).draft));
    expect(drafts.size).toBeGreaterThan(1);
  });

  it('given a shared tag in another case and with spaces, when drafting, then it is found in self\'s spelling', () => {
    const draft = draftIcebreaker(input());
    expect(draft.shared_tag).toBe('Hiking');
    expect(draft.draft).toContain('Hiking');
    expect(draft.rationale).toBe('You both tagged "Hiking".');
  });

  it('given no shared tag, when drafting, then shared_tag is null and the peer\'s first tag leads', () => {
    const draft = draftIcebreaker(input({ self: { avatar_style: 'x', vibe_tags: ['chess'] } }));
    expect(draft.shared_tag).toBeNull();
    expect(draft.draft).toContain('jazz');
    expect(draft.rationale).toBe('They tagged "jazz", so the opener asks about it.');
  });

  it('given no tags at all, when drafting, then the peer\'s avatar style leads in readable form', () => {
    const draft = draftIcebreaker(input({ self: { avatar_style: 'x', vibe_tags: [] }, peer: { avatar_style: 'pixel_art', vibe_tags: [] } }));
    expect(draft.draft).toContain('pixel art');
    expect(draft.rationale).toContain('pixel art');
  });

  it('given nothing to go on, when drafting, then a neutral opener is used', () => {
    const draft = draftIcebreaker(input({ self: { avatar_style: '', vibe_tags: [] }, peer: { avatar_style: ' ', vibe_tags: ['', '  '] } }));
    expect(draft.shared_tag).toBeNull();
    expect(draft.rationale).toBe('Nothing to go on yet, so a friendly, neutral opener.');
    expect(draft.alt_drafts.every((t) => t !== draft.draft)).toBe(true);
  });

  it.each([[220], [60], [20]])('given maxChars %i, when drafting many matches, then every text is trimmed and within the limit', (maxChars) => {
    for (const matchId of matchIds) {
      const draft = draftIcebreaker(input({ matchId, maxChars }));
      for (const text of allTexts(draft)) {
        expect(points(text)).toBeLessThanOrEqual(maxChars);
        expect(text).toBe(text.trim());
        expect(text).not.toBe('');
      }
      expect(draft.length).toBe(points(draft.draft));
      expect(draft.source).toBe('template');
    }
  });

  it.each([[220], [20]])('given maxChars %i, when drafting, then the two alternatives differ from the draft and each other', (maxChars) => {
    for (const matchId of matchIds) {
      for (const peer of [input().peer, { avatar_style: '', vibe_tags: [] }]) {
        const texts = allTexts(draftIcebreaker(input({ matchId, maxChars, peer })));
        expect(new Set(texts).size).toBe(3);
      }
    }
  });

  it('given a long tag and maxChars 20, when drafting, then the text is cut on a word boundary with an ellipsis', () => {
    const tag = 'underwater basket weaving';
    const draft = draftIcebreaker(input({ self: { avatar_style: 'x', vibe_tags: [tag] }, peer: { avatar_style: 'y', vibe_tags: [tag] }, maxChars: 20 }));
    expect(draft.draft.endsWith('…')).toBe(true);
    expect(points(draft.draft)).toBeLessThanOrEqual(20);
  });

  it('given a tiny maxChars, when drafting, then it does not crash and stays within the limit', () => {
    for (const maxChars of [1, 2, 5, 10]) {
      const draft = draftIcebreaker(input({ maxChars }));
      for (const text of allTexts(draft)) expect(points(text)).toBeLessThanOrEqual(maxChars);
    }
  });

  describe('fitText', () => {
    it('given a short text, then it is only trimmed', () => {
      expect(fitText('  hello there  ', 20)).toBe('hello there');
    });

    it('given a long text, then it is cut at the last word that fits, without trailing punctuation, plus …', () => {
      expect(fitText('Hello there, how are you today?', 16)).toBe('Hello there…');
    });

    it('given a cut right before a space, then the whole last word stays', () => {
      expect(fitText('Hello there friend', 12)).toBe('Hello there…');
    });

    it('given one long word, then it is cut hard', () => {
      expect(fitText('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghi…');
    });

    it('given emoji, then code points are counted, not UTF-16 units', () => {
      expect(points(fitText('😀😀😀😀😀😀', 4))).toBe(4);
      expect(fitText('😀😀😀', 3)).toBe('😀😀😀');
    });
  });

  describe('sharedTag', () => {
    it('given several shared tags, then the first in self\'s order wins', () => {
      expect(sharedTag(['chess', 'JAZZ'], ['jazz', 'Chess'])).toBe('chess');
    });

    it('given blank tags on both sides, then they never match', () => {
      expect(sharedTag(['', ' '], [' ', ''])).toBeNull();
    });
  });
});
