import { deciderKit } from '../../../test/support/decider-kit';
import { geohash } from './geo';
import { userLocationDecider, type UserLocationCommand } from './user-location';

const t0 = new Date('2026-11-23T10:00:00.000Z');
const at = (sec: number) => new Date(t0.getTime() + sec * 1000);
const { given, history } = deciderKit(userLocationDecider, t0);
const ping = (lat = 48.1, lon = 11.5): UserLocationCommand => ({ kind: 'ping', userId: 'ann', lat, lon, accuracy: null, deviceId: null });
const sharing = (enabled: boolean): UserLocationCommand => ({ kind: 'setSharing', userId: 'ann', enabled });

describe('user location', () => {
  it('given no ping, when pinging, then it is stored with its geohash and lives 24 h', () =>
    given()
      .when(ping())
      .then({
        type: 'LocationPinged',
        data: { user_id: 'ann', lat: 48.1, lon: 11.5, accuracy: null, device_id: null, geohash: geohash({ lat: 48.1, lon: 11.5 }), at: t0.toISOString(), expires_at: at(86_400).toISOString() },
      }));

  it('given a ping 29 s ago, when pinging, then nothing is stored; at 30 s it is', () => {
    const past = history(ping());
    given(...past).when(ping(), at(29)).thenNothing();
    expect(given(...past).when(ping(), at(30)).events()).toHaveLength(1);
  });

  it.each([
    [{ lat: undefined, lon: 1 }, 'lat and lon required'],
    [{ lat: Number.NaN, lon: 1 }, 'Invalid coordinates'],
    [{ lat: 1, lon: 181 }, 'Coordinates out of range'],
  ])('given %j, when pinging, then it is refused with the contract text', (coords, message) =>
    given()
      .when({ ...ping(), ...coords } as UserLocationCommand)
      .thenRefused('invalid', message));

  it('given a stored ping, when sharing is turned off, then the location is cleared; off again records nothing', () => {
    const off = given(...history(ping())).when(sharing(false));
    expect(off.events()).toEqual([{ type: 'LocationSharingSet', data: { user_id: 'ann', enabled: false, at: t0.toISOString() } }]);
    expect(off.state().lastPing).toBeNull();
    given(...history(ping(), sharing(false))).when(sharing(false)).thenNothing();
  });

  it('given sharing on, when turned on again, then nothing is recorded', () => given(...history(sharing(true))).when(sharing(true)).thenNothing());
});
