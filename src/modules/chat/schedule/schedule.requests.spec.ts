import { DomainError } from '../../../aggregates/shared/domain-error';
import { PROMPT_MAX_CHARS } from '../chat.requests';
import { expectReaderAgreesWithSchema } from '../../../../test/support/schema-agreement';
import { parseTimeAgentRequest, parseUtcTimestamp, TIME_AGENT_BODY_SCHEMA } from './schedule.requests';

const now = new Date('2026-04-10T12:00:00.000Z');
const valid = { user_id: 'alice@example.com', prompt_id: 'daily_news-1', prompt: 'summarise the news', schedule_time: '2026-04-10T12:30:00Z' };
const refused = (body: unknown, message: string) => expect(() => parseTimeAgentRequest(body, now, { userIdRequired: true })).toThrow(new DomainError('invalid', message));

describe('parseUtcTimestamp', () => {
  it.each([
    ['2026-04-10T12:30:00Z', '2026-04-10T12:30:00.000Z'],
    ['2026-04-10T12:30:00z', '2026-04-10T12:30:00.000Z'],
    ['2026-04-10T12:30:00+00:00', '2026-04-10T12:30:00.000Z'],
    ['2026-04-10T12:30:00+0000', '2026-04-10T12:30:00.000Z'],
    ['2026-04-10T12:30:00.5Z', '2026-04-10T12:30:00.500Z'],
    ['2026-04-10T12:30:00.123456789Z', '2026-04-10T12:30:00.123Z'],
    ['2026-04-10T12:30Z', '2026-04-10T12:30:00.000Z'],
    ['2026-04-10T12:30:00', '2026-04-10T12:30:00.000Z'], // no zone: read as UTC
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
  ])('reads %s as %s', (input, iso) => {
    expect(parseUtcTimestamp(input)?.toISOString()).toBe(iso);
  });

  it.each([
    'tomorrow',
    '',
    '2026-04-10',
    '2026-04-10 12:30:00Z',
    '2026-04-10T12:30:00+02:00',
    '2026-04-10T12:30:00-05:00',
    '2026-04-10T12:30:00-00:00',
    '2026-02-30T12:00:00Z',
    '2027-02-29T12:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-04-10T24:00:00Z',
    '2026-04-10T12:60:00Z',
    '2026-04-10T12:30:60Z',
    '1776000000',
    '2026-04-10T12:30:00ZZ',
    '+002026-04-10T12:30:00Z',
  ])('refuses %j', (input) => {
    expect(parseUtcTimestamp(input)).toBeNull();
  });
});

describe('parseTimeAgentRequest', () => {
  it('accepts a valid body and ignores unknown fields', () => {
    expect(parseTimeAgentRequest({ ...valid, extra: 1 }, now, { userIdRequired: true })).toEqual({
      userId: 'alice@example.com',
      promptId: 'daily_news-1',
      prompt: 'summarise the news',
      runAt: new Date('2026-04-10T12:30:00Z'),
    });
  });

  it('refuses a body that is not an object', () => {
    refused(null, 'missing required fields: user_id, prompt_id, prompt, schedule_time');
    refused([valid], 'request body must be a JSON object');
    refused('x', 'request body must be a JSON object');
  });

  it('names every missing field', () => {
    refused({}, 'missing required fields: user_id, prompt_id, prompt, schedule_time');
    refused({ ...valid, prompt: undefined }, 'missing required field: prompt');
    refused({ ...valid, schedule_time: null }, 'missing required field: schedule_time');
  });

  it('refuses wrong types and malformed ids', () => {
    refused({ ...valid, user_id: 42 }, 'user_id is required (a non-empty string)');
    refused({ ...valid, user_id: 'a/b' }, 'user_id must be 1-128 letters, digits or _ . : @ -');
    refused({ ...valid, prompt_id: 'has space' }, 'prompt_id may hold only letters, digits, _ and - (1-128 characters)');
    refused({ ...valid, prompt_id: 'x'.repeat(129) }, 'prompt_id may hold only letters, digits, _ and - (1-128 characters)');
    refused({ ...valid, prompt: ['a'] }, 'prompt is required (a non-empty string)');
    refused({ ...valid, prompt: '   ' }, 'prompt is required (a non-empty string)');
    refused({ ...valid, prompt: 'x'.repeat(PROMPT_MAX_CHARS + 1) }, `prompt must be at most ${PROMPT_MAX_CHARS} characters`);
    refused({ ...valid, schedule_time: 1776000000 }, 'schedule_time must be a string (an ISO 8601 UTC timestamp)');
  });

  it('refuses a malformed or non-UTC schedule_time', () => {
    const message = 'schedule_time must be an ISO 8601 UTC timestamp, e.g. 2030-01-31T09:30:00Z';
    refused({ ...valid, schedule_time: 'in an hour' }, message);
    refused({ ...valid, schedule_time: '2026-04-10T14:30:00+02:00' }, message);
  });

  it('refuses a schedule_time that is now or past', () => {
    refused({ ...valid, schedule_time: '2026-04-10T12:00:00Z' }, 'schedule_time must be in the future');
    refused({ ...valid, schedule_time: '2020-01-01T00:00:00Z' }, 'schedule_time must be in the future');
  });
});

describe('TIME_AGENT_BODY_SCHEMA', () => {
  it('given POST /time_agent bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(TIME_AGENT_BODY_SCHEMA, (b) => parseTimeAgentRequest(b, now, { userIdRequired: false }), {
      valid: { prompt_id: 'p1', prompt: 'remind me', schedule_time: '2030-01-31T09:30:00Z' },
      candidates: {
        user_id: ['u-1', ' u1 ', 'a b'],
        schedule_time: ['2030-01-31T09:30', ' 2030-01-31T09:30:00.123456+00:00 ', '2030-01-31T09:30:00+0000', '2030-01-31', '2030-01-31 09:30:00Z', '2030-01-31T09:30:00+01:00'],
      },
    });
  });
});
