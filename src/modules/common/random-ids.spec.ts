import { randomHex } from './random-ids';

describe('randomHex', () => {
  it('given a size, when drawn, then it is that many bytes of lowercase hex', () => {
    expect(randomHex(12)).toMatch(/^[0-9a-f]{24}$/);
    expect(randomHex(10)).toMatch(/^[0-9a-f]{20}$/);
  });

  it('given many draws across refills of the pool, when compared, then no two are equal', () => {
    const drawn = new Set(Array.from({ length: 5000 }, () => randomHex(12)));
    expect(drawn.size).toBe(5000);
  });
});
