import { deciderKit } from '../../../test/support/decider-kit';
import { geohash } from './geo';
import {
  ALREADY_RESPONDED,
  DAILY_LIMIT,
  MISSED_CONNECTION_NOT_FOUND,
  missedConnectionsDecider,
  type MissedConnectionCommand,
  NOT_ACTIVE,
  NOT_YOUR_MISSED_CONNECTION,
  OWN_POST,
  RESPONSE_NOT_FOUND,
  RESPONSE_NOT_PENDING,
  WAS_AT_IN_FUTURE,
  WAS_AT_TOO_OLD,
} from './missed-connections';

const t0 = new Date('2026-11-23T10:00:00.000Z');
const hours = (h: number) => new Date(t0.getTime() + h * 3600_000);
const { given, history } = deciderKit(missedConnectionsDecider, t0);

const post = (id = 'mc1', wasAt = hours(-2).toISOString()): MissedConnectionCommand => ({
  kind: 'post',
  posterId: 'ann',
  lat: 52.52,
  lon: 13.405,
  locationName: 'Cafe Einstein',
  description: 'You had a red scarf',
  wasAt,
  newId: id,
});
const respond = (responderId = 'bob', responseId = 'r1', id = 'mc1'): MissedConnectionCommand => ({
  kind: 'respond',
  missedConnectionId: id,
  responderId,
  message: 'That was me',
  newResponseId: responseId,
});
const accept = (responseId = 'r1', callerId = 'ann'): MissedConnectionCommand => ({ kind: 'accept', missedConnectionId: 'mc1', responseId, callerId });
const withdraw = (callerId = 'ann'): MissedConnectionCommand => ({ kind: 'withdraw', missedConnectionId: 'mc1', callerId });

describe('missed connections of a poster', () => {
  it('given nothing, when posting, then it is recorded with its geohash, was_at in UTC, and expires 7 days after creation', () =>
    given()
      .when(post())
      .then({
        type: 'MissedConnectionPosted',
        data: {
          missed_connection_id: 'mc1',
          user_id: 'ann',
          lat: 52.52,
          lon: 13.405,
          geohash: geohash({ lat: 52.52, lon: 13.405 }),
          location_name: 'Cafe Einstein',
          description: 'You had a red scarf',
          was_at: hours(-2).toISOString(),
          created_at: t0.toISOString(),
          expires_at: hours(7 * 24).toISOString(),
        },
      }));

  it('given a was_at in the future, when posting, then it is refused', () => given().when(post('mc1', hours(0.01).toISOString())).thenRefused('invalid', WAS_AT_IN_FUTURE));

  it('given a was_at more than 7 days ago, when posting, then it is refused; exactly 7 days ago is accepted', () => {
    given().when(post('mc1', hours(-7 * 24 - 0.01).toISOString())).thenRefused('invalid', WAS_AT_TOO_OLD);
    expect(given().when(post('mc1', hours(-7 * 24).toISOString())).events()).toHaveLength(1);
  });

  it('given coordinates off the globe, when posting, then it is refused with the location texts', () =>
    given()
      .when({ ...post(), lat: 91 } as MissedConnectionCommand)
      .thenRefused('invalid', 'Coordinates out of range'));

  it('given three posts today, when posting a fourth, then it is refused; the next UTC day it is accepted', () => {
    const past = history(post('a'), post('b'), post('c'));
    given(...past).when(post('d')).thenRefused('invalid', DAILY_LIMIT);
    const tomorrow = new Date('2026-11-24T00:00:00.000Z');
    expect(given(...past).when(post('d', hours(10).toISOString()), tomorrow).events()).toHaveLength(1);
  });

  it('given a post, when the poster withdraws it, then it is inactive; again records nothing; anyone else is refused', () => {
    const past = history(post());
    expect(given(...past).when(withdraw()).events()).toEqual([
      { type: 'MissedConnectionWithdrawn', data: { missed_connection_id: 'mc1', user_id: 'ann', at: t0.toISOString() } },
    ]);
    given(...history(post(), withdraw())).when(withdraw()).thenNothing();
    given(...past).when(withdraw('bob')).thenRefused('invalid', NOT_YOUR_MISSED_CONNECTION);
    given().when(withdraw()).thenRefused('invalid', MISSED_CONNECTION_NOT_FOUND);
  });

  it('given a post, when someone else responds, then a pending response naming both sides is recorded', () =>
    given(...history(post()))
      .when(respond())
      .then({
        type: 'MissedConnectionResponded',
        data: { response_id: 'r1', missed_connection_id: 'mc1', poster_id: 'ann', responder_id: 'bob', message: 'That was me', status: 'pending', created_at: t0.toISOString() },
      }));

  it('given a response by bob, when bob responds again, then it is refused; carol may still respond', () => {
    const past = history(post(), respond());
    given(...past).when(respond('bob', 'r2')).thenRefused('invalid', ALREADY_RESPONDED);
    expect(given(...past).when(respond('carol', 'r2')).events()).toHaveLength(1);
  });

  it('given a post, when its poster responds, then it is refused', () => given(...history(post())).when(respond('ann')).thenRefused('invalid', OWN_POST));

  it('given a withdrawn or expired post, when responding, then it is refused', () => {
    given(...history(post(), withdraw())).when(respond()).thenRefused('invalid', NOT_ACTIVE);
    given(...history(post())).when(respond(), hours(7 * 24)).thenRefused('invalid', NOT_ACTIVE);
  });

  it('given a pending response, when the poster accepts it, then it is accepted with the place; again is refused', () => {
    const past = history(post(), respond());
    expect(given(...past).when(accept()).events()).toEqual([
      {
        type: 'MissedConnectionResponseAccepted',
        data: { response_id: 'r1', missed_connection_id: 'mc1', poster_id: 'ann', responder_id: 'bob', location_name: 'Cafe Einstein', at: t0.toISOString() },
      },
    ]);
    given(...history(post(), respond(), accept())).when(accept()).thenRefused('invalid', RESPONSE_NOT_PENDING);
  });

  it('given a pending response, when anyone but the poster accepts, or an unknown response is accepted, then it is refused', () => {
    const past = history(post(), respond());
    given(...past).when(accept('r1', 'bob')).thenRefused('invalid', NOT_YOUR_MISSED_CONNECTION);
    given(...past).when(accept('nope')).thenRefused('invalid', RESPONSE_NOT_FOUND);
  });
});
