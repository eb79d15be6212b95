import { deciderKit } from '../../../test/support/decider-kit';
import {
  ENCOUNTER_NOT_FOUND,
  nextBondLevel,
  socialEncounterDecider,
  socialEncounterStreamId,
  type SocialEncounterCommand,
  type SocialEncounterEvent,
} from './social-encounter';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given, history } = deciderKit(socialEncounterDecider, now);

const record = (source: string, contextId = 'post1', userIds: [string, string] = ['bob', 'ann']): SocialEncounterCommand => ({
  kind: 'record',
  userIds,
  contextType: 'post',
  contextId,
  locationLabel: null,
  source,
  newEncounterId: `enc-${source}`,
});
const acknowledge = (callerId: string, encounterId = 'enc-c1'): SocialEncounterCommand => ({ kind: 'acknowledge', encounterId, callerId });
const recordedData = (events: SocialEncounterEvent[]) => events.map((e) => e.data);

describe('social encounter pair', () => {
  it('given no encounter, when recording one, then the pair is stored sorted with count 1 and bond 0', () =>
    given()
      .when(record('c1'))
      .then({
        type: 'SocialEncounterRecorded',
        data: {
          encounter_id: 'enc-c1',
          user_a_id: 'ann',
          user_b_id: 'bob',
          context_type: 'post',
          context_id: 'post1',
          location_label: null,
          encounter_count: 1,
          bond_level: 0,
          first_at: now.toISOString(),
          latest_at: now.toISOString(),
          source: 'c1',
        },
      }));

  it('given an encounter in a context, when recording again in it, then the same row counts 2 with bond 1', () => {
    const [event] = given(...history(record('c1'))).when(record('c2')).events();
    expect(event.data).toMatchObject({ encounter_id: 'enc-c1', encounter_count: 2, bond_level: 1 });
  });

  it('given an encounter, when a record in another context arrives, then a new row starts at count 1', () => {
    const [event] = given(...history(record('c1'))).when(record('c2', 'post2')).events();
    expect(event.data).toMatchObject({ encounter_id: 'enc-c2', context_id: 'post2', encounter_count: 1, bond_level: 0 });
  });

  it('given a recorded source, when the same source is recorded again, then nothing is recorded (redelivery)', () =>
    given(...history(record('c1'))).when(record('c1')).thenNothing());

  it('when recording a user with themself, then it is refused', () => given().when(record('c1', 'post1', ['ann', 'ann'])).thenRefused('invalid'));

  it('given an encounter, when a participant acknowledges it, then it is acknowledged once', () => {
    const past = history(record('c1'));
    expect(recordedData(given(...past).when(acknowledge('bob')).events())).toEqual([
      { encounter_id: 'enc-c1', user_a_id: 'ann', user_b_id: 'bob', by: 'bob', at: now.toISOString() },
    ]);
    const acknowledged = given(...past).when(acknowledge('bob')).events();
    given(...past, ...acknowledged).when(acknowledge('ann')).thenNothing();
    expect(given(...past, ...acknowledged).state().rows['post:post1'].is_mutual_aware).toBe(true);
  });

  it('given an encounter, when someone outside the pair acknowledges it, then it is not found', () =>
    given(...history(record('c1'))).when(acknowledge('eve')).thenRefused('not_found', ENCOUNTER_NOT_FOUND));

  it('given no such encounter, when acknowledging, then it is not found', () => given().when(acknowledge('ann', 'nope')).thenRefused('not_found', ENCOUNTER_NOT_FOUND));

  it('the stream of a pair is the same whichever user is named first', () => expect(socialEncounterStreamId('bob', 'ann')).toBe(socialEncounterStreamId('ann', 'bob')));

  it('bond level follows the §13 thresholds and adds 1 per encounter from count 50, up to 10', () => {
    const levels: number[] = [];
    let level = 0;
    for (let count = 1; count <= 60; count += 1) {
      level = nextBondLevel(level, count);
      levels.push(level);
    }
    expect([1, 2, 4, 5, 9, 10, 19, 20, 49, 50, 51, 52, 53, 60].map((count) => levels[count - 1])).toEqual([0, 1, 1, 3, 3, 5, 5, 7, 7, 8, 9, 10, 10, 10]);
  });
});
