import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import {
  MISSED_CONNECTION_BODY_SCHEMA,
  MISSED_CONNECTION_RESPONSE_BODY_SCHEMA,
  missedConnectionRequest,
  missedConnectionResponseRequest,
} from './missed-connections.requests';

const valid = { lat: 52.52, lon: 13.405, location_name: 'Cafe Einstein', description: 'Red scarf', was_at: '2026-11-23T10:00:00Z' };

describe('the missed-connection bodies agree with their schemas', () => {
  it('given create bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(MISSED_CONNECTION_BODY_SCHEMA, missedConnectionRequest, {
      valid,
      candidates: {
        lat: [90, 90.1, -90.1],
        location_name: ['ab', 'abc', 'x'.repeat(200), 'x'.repeat(201)],
        description: ['d'.repeat(500), 'd'.repeat(501)],
        was_at: ['2026-11-23', '2026-11-23T10:00', '2026-11-23T10:00:00.123+01:00', '2026-11-23 10:00', 'yesterday'],
      },
    });
  });

  it('given respond bodies, then the reader accepts exactly what the schema accepts', () => {
    expectReaderAgreesWithSchema(MISSED_CONNECTION_RESPONSE_BODY_SCHEMA, missedConnectionResponseRequest, {
      valid: { message: 'That was me' },
      candidates: { message: ['m'.repeat(300), 'm'.repeat(301)] },
    });
  });

  it('given a was_at without a zone, then it is read as UTC', () => {
    expect(missedConnectionRequest({ ...valid, was_at: '2026-11-23T10:00' }).wasAt).toBe('2026-11-23T10:00:00.000Z');
    expect(missedConnectionRequest({ ...valid, was_at: '2026-11-23T10:00:00+02:00' }).wasAt).toBe('2026-11-23T08:00:00.000Z');
  });
});
