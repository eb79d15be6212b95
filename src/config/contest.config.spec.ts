import { ConfigError } from './config';
import { loadContestConfig } from './contest.config';

const now = new Date('2026-03-01T12:00:00.000Z');

describe('loadContestConfig', () => {
  it('given nothing, then the window is now through now + 30 days', () => {
    expect(loadContestConfig({}, now)).toEqual({
      startsAt: new Date('2026-03-01T12:00:00.000Z'),
      endsAt: new Date('2026-03-31T12:00:00.000Z'),
      configured: { start: false, end: false },
    });
  });

  it('given both variables without zone, then they are read as UTC', () => {
    expect(loadContestConfig({ SVC_CONTEST_START: '2026-04-01T00:00:00', SVC_CONTEST_END: '2026-05-01T08:30:15.250' }, now)).toEqual({
      startsAt: new Date('2026-04-01T00:00:00.000Z'),
      endsAt: new Date('2026-05-01T08:30:15.250Z'),
      configured: { start: true, end: true },
    });
  });

  it('given only a start, then the end is 30 days after it', () => {
    expect(loadContestConfig({ SVC_CONTEST_START: '2026-04-01' }, now).endsAt).toEqual(new Date('2026-05-01T00:00:00.000Z'));
  });

  it('given only an end, then the start is now', () => {
    expect(loadContestConfig({ SVC_CONTEST_END: '2026-03-02T00:00:00' }, now)).toEqual({
      startsAt: now,
      endsAt: new Date('2026-03-02T00:00:00.000Z'),
      configured: { start: false, end: true },
    });
  });

  it.each([
    ['SVC_CONTEST_START', 'tomorrow'],
    ['SVC_CONTEST_START', '2026-04-01T00:00:00Z'],
    ['SVC_CONTEST_START', '2026-04-01T00:00:00+02:00'],
    ['SVC_CONTEST_END', '2026-02-30T00:00:00'],
    ['SVC_CONTEST_END', '2026-13-01'],
  ])('given %s=%s, then a ConfigError names the variable', (name, value) => {
    expect(() => loadContestConfig({ [name]: value }, now)).toThrow(ConfigError);
    expect(() => loadContestConfig({ [name]: value }, now)).toThrow(name);
  });

  it('given an end before the start, then a ConfigError names SVC_CONTEST_END', () => {
    expect(() => loadContestConfig({ SVC_CONTEST_START: '2026-04-01', SVC_CONTEST_END: '2026-03-01' }, now)).toThrow(
      /SVC_CONTEST_END/,
    );
  });
});
