import { DomainError } from '../../aggregates/shared/domain-error';
import { isFinalRefusal } from './final-refusal';

describe('isFinalRefusal', () => {
  it('given a refusal by the domain, then the saga command counts as handled', () => {
    expect(isFinalRefusal(new DomainError('conflict', 'already paid'))).toBe(true);
    expect(isFinalRefusal(new DomainError('not_found', 'no such goal'))).toBe(true);
  });

  it('given a refusal that a later try may overturn, or any other error, then the batch is retried', () => {
    expect(isFinalRefusal(new DomainError('unavailable', 'store down'))).toBe(false);
    expect(isFinalRefusal(new DomainError('rate_limited', 'slow down'))).toBe(false);
    expect(isFinalRefusal(new Error('conflict past its retries'))).toBe(false);
  });
});
