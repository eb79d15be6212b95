import { open, seal } from './backup-crypto';

// cheap parameters: the spec is about the format, not the cost
const params = { N: 2 ** 10, r: 8, p: 1, key_length: 32 };
const binding = { userId: 'ann', backupId: 'bk_1' };
const plaintext = Buffer.from('{"posts":[]}');

describe('backup crypto', () => {
  it('given a sealed backup, when opened with the passphrase, then the plaintext comes back; the file holds no plaintext', async () => {
    const file = await seal(plaintext, 'correct horse', binding, params);
    expect(file.includes(plaintext)).toBe(false);
    expect(await open(file, 'correct horse', binding, params)).toEqual(plaintext);
  });

  it('given two seals of one plaintext, then salt and IV differ (the files differ)', async () => {
    expect((await seal(plaintext, 'correct horse', binding, params)).equals(await seal(plaintext, 'correct horse', binding, params))).toBe(false);
  });

  it.each([
    ['a wrong passphrase', 'wrong horse', binding],
    ['another user', 'correct horse', { ...binding, userId: 'bob' }],
    ['another backup id', 'correct horse', { ...binding, backupId: 'bk_2' }],
  ])('given %s, when opening, then null (an authentication failure, no throw)', async (_, passphrase, other) => {
    expect(await open(await seal(plaintext, 'correct horse', binding, params), passphrase, other, params)).toBeNull();
  });

  it('given a changed byte or a truncated file, when opening, then null', async () => {
    const file = await seal(plaintext, 'correct horse', binding, params);
    const flipped = Buffer.from(file);
    flipped[flipped.length - 1] ^= 1;
    expect(await open(flipped, 'correct horse', binding, params)).toBeNull();
    expect(await open(file.subarray(0, 20), 'correct horse', binding, params)).toBeNull();
  });
});
