import { compositeTrust, raterWeight, weightedMean } from './trust';

describe('trust formula', () => {
  it('given a rater without signal, then the weight is the floor 0.5', () => expect(raterWeight(0)).toBe(0.5));

  it('given a signal of 20, then the weight is signal ÷ 10 = 2', () => expect(raterWeight(20)).toBe(2));

  it('given a signal of 100, then the weight is capped at 3', () => expect(raterWeight(100)).toBe(3));

  it('given no scores, then the mean is 0', () => expect(weightedMean(undefined)).toBe(0));

  it('given scores 5 (weight 3) and 1 (weight 1), then the mean leans to the heavier rater: 4', () =>
    expect(weightedMean({ weighted: 5 * 3 + 1 * 1, weight: 4 })).toBe(4));

  it('when composing, then skill 25 %, usefulness 30 %, reliability 30 %, creativity 15 %', () =>
    expect(compositeTrust({ skill: 4, usefulness: 2, reliability: 5, creativity: 1 })).toBe(3.25));
});
