import { deciderKit } from '../../../test/support/decider-kit';
import {
  discoverableDecider,
  discoverablePreference,
  discoverableView,
  isDiscoverableAt,
  type DiscoverableCommand,
  type DiscoverableState,
} from './discoverable';
import { DEFAULT_ENCOUNTER_LIMITS } from './encounter-limits';
import type { DiscoverableEnabled, DiscoverableEvent } from './encounter.events';

const limits = DEFAULT_ENCOUNTER_LIMITS;
const t0 = new Date('2026-06-01T10:00:00.000Z');
const at = (ms: number) => new Date(t0.getTime() + ms);
const H = 3600 * 1000;

const { given } = deciderKit(discoverableDecider, t0);
const set = (fields: Partial<DiscoverableCommand> = {}): DiscoverableCommand => ({
  kind: 'set',
  userId: 'u1',
  enabled: true,
  ageClaim18: true,
  limits,
  ...fields,
});
/** The GET view of a state at `now`. */
const viewOf = (state: DiscoverableState, now: Date) => discoverableView(discoverablePreference(state), now);
/** The data of the one event a command records. */
const recorded = (result: { events(): DiscoverableEvent[] }) => result.events()[0].data;

/** The events of toggling at each of these times in turn. */
function toggles(times: Date[], command: DiscoverableCommand = set()): DiscoverableEvent[] {
  return times.reduce<DiscoverableEvent[]>((past, time) => [...past, ...given(...past).when(command, time).events()], []);
}

const enabledEvent = (overrides: Partial<DiscoverableEnabled['data']> = {}): DiscoverableEnabled => ({
  type: 'DiscoverableEnabled',
  data: {
    user_id: 'u1',
    age_claim_18: true,
    face_visible: true,
    avatar_style: 'pixel',
    vibe_tags: ['hiking'],
    toggle_count_24h: 1,
    toggle_window_start: t0.toISOString(),
    last_toggle_at: t0.toISOString(),
    enabled_at: t0.toISOString(),
    expires_at: at(4 * H).toISOString(),
    ttl_sec: 14400,
    ...overrides,
  },
});

describe('discoverable', () => {
  describe('enabling', () => {
    it('given nothing, when enabling with the adult claim, then DiscoverableEnabled starts the window and expires after the TTL', () => {
      given()
        .when(set({ ttlSec: 600, faceVisible: true, avatarStyle: 'pixel', vibeTags: ['hiking'] }))
        .then({
          type: 'DiscoverableEnabled',
          data: {
            user_id: 'u1',
            age_claim_18: true,
            face_visible: true,
            avatar_style: 'pixel',
            vibe_tags: ['hiking'],
            toggle_count_24h: 1,
            toggle_window_start: t0.toISOString(),
            last_toggle_at: t0.toISOString(),
            enabled_at: t0.toISOString(),
            expires_at: at(600 * 1000).toISOString(),
            ttl_sec: 600,
          },
        });
    });

    it('given nothing, when enabling without the adult claim, then 403', () => {
      given().when(set({ ageClaim18: undefined })).thenRefused('forbidden', 'age_claim_18 must be true to enable discoverable');
    });

    it('given nothing, when enabling with age_claim_18 false, then 403', () => {
      given().when(set({ ageClaim18: false })).thenRefused('forbidden', 'age_claim_18 must be true to enable discoverable');
    });

    it('given a stored adult claim, when enabling without repeating it, then 403 (the claim goes with each enable)', () => {
      given(enabledEvent()).when(set({ ageClaim18: undefined })).thenRefused(
        'forbidden',
        'age_claim_18 must be true to enable discoverable',
      );
    });

    it('given nothing, when disabling without the adult claim, then DiscoverableDisabled is recorded', () => {
      expect(given().when(set({ enabled: false, ageClaim18: undefined })).events().map((e) => e.type)).toEqual(['DiscoverableDisabled']);
    });
  });

  describe('disabling', () => {
    it('given an enabled preference, when disabling, then DiscoverableDisabled keeps the profile and counts the toggle', () => {
      given(enabledEvent())
        .when(set({ enabled: false, ageClaim18: undefined }), at(H))
        .then({
          type: 'DiscoverableDisabled',
          data: {
            user_id: 'u1',
            age_claim_18: true,
            face_visible: true,
            avatar_style: 'pixel',
            vibe_tags: ['hiking'],
            toggle_count_24h: 2,
            toggle_window_start: t0.toISOString(),
            last_toggle_at: at(H).toISOString(),
            disabled_at: at(H).toISOString(),
          },
        });
    });

    it('given an enabled preference, when it is disabled, then the expiry is cleared and it reads as off', () => {
      const off = given(...toggles([t0])).when(set({ enabled: false }), at(H)).state();
      expect(off.status).toBe('disabled');
      expect(off).not.toHaveProperty('expiresAt');
      expect(viewOf(off, at(H))).toMatchObject({ enabled: false, expires_at: null, remaining_sec: 0 });
    });
  });

  describe('toggle limit (sliding 24 h window)', () => {
    const six = [0, 1, 2, 3, 4, 5].map((i) => at(i * H));

    it('given six toggles in the window, when toggling again, then 429 names the limit', () => {
      given(...toggles(six)).when(set(), at(6 * H)).thenRefused('rate_limited', 'toggle limit reached (6 per 24h)');
    });

    it('given six toggles in the window, when disabling, then the off toggle is limited too', () => {
      given(...toggles(six)).when(set({ enabled: false }), at(6 * H)).thenRefused('rate_limited', 'toggle limit reached (6 per 24h)');
    });

    it('given the limit reached, when enabling without the adult claim, then the limit check answers first (429, not 403)', () => {
      given(...toggles(six)).when(set({ ageClaim18: false }), at(6 * H)).thenRefused('rate_limited', 'toggle limit reached (6 per 24h)');
    });

    it('given five toggles, when toggling the sixth time, then it is accepted with count 6', () => {
      expect(recorded(given(...toggles(six.slice(0, 5))).when(set(), at(5 * H)))).toMatchObject({
        toggle_count_24h: 6,
        toggle_window_start: t0.toISOString(),
      });
    });

    it('given the limit reached, when exactly 24 h after the window start, then it is still inside the window (429)', () => {
      given(...toggles(six)).when(set(), at(24 * H)).thenRefused('rate_limited', 'toggle limit reached (6 per 24h)');
    });

    it('given the limit reached, when more than 24 h after the window start, then the window restarts at now with count 1', () => {
      const now = at(24 * H + 1);
      expect(recorded(given(...toggles(six)).when(set(), now))).toMatchObject({
        toggle_count_24h: 1,
        toggle_window_start: now.toISOString(),
        last_toggle_at: now.toISOString(),
      });
    });

    it('given a configured limit of 2, when toggling a third time, then the message names 2', () => {
      const two = { ...limits, maxToggles24h: 2 };
      given(...toggles([t0, at(1)], set({ limits: two }))).when(set({ limits: two }), at(2)).thenRefused(
        'rate_limited',
        'toggle limit reached (2 per 24h)',
      );
    });
  });

  describe('ttl', () => {
    const ttlOf = (ttlSec: number | undefined) => recorded(given().when(set({ ttlSec })));

    it.each([
      ['missing', undefined, 14400],
      ['zero', 0, 14400],
      ['negative', -5, 14400],
      ['above the maximum', 14401, 14400],
      ['the maximum', 14400, 14400],
      ['one second', 1, 1],
      ['a fraction', 90.9, 90],
      ['a fraction below one', 0.5, 14400],
      ['not a number', Number.NaN, 14400],
    ])('given ttl_sec %s, when enabling, then the TTL is as capped', (_label, ttlSec, expected) => {
      const data = ttlOf(ttlSec) as DiscoverableEnabled['data'];
      expect(data.ttl_sec).toBe(expected);
      expect(data.expires_at).toBe(at(expected * 1000).toISOString());
    });

    it('given a configured TTL of 60, when asking for more, then it is capped at 60', () => {
      const data = recorded(given().when(set({ ttlSec: 600, limits: { ...limits, discoverableTtlSec: 60 } })));
      expect((data as DiscoverableEnabled['data']).ttl_sec).toBe(60);
    });
  });

  describe('profile', () => {
    it('given nothing, when enabling without profile fields, then the defaults are used', () => {
      expect(recorded(given().when(set()))).toMatchObject({
        age_claim_18: true,
        face_visible: false,
        avatar_style: 'studio_ghibli',
        vibe_tags: [],
      });
    });

    it('given a stored profile, when toggling without profile fields, then the stored profile is kept', () => {
      expect(recorded(given(enabledEvent()).when(set({ enabled: false })))).toMatchObject({
        face_visible: true,
        avatar_style: 'pixel',
        vibe_tags: ['hiking'],
      });
    });

    it('given a stored profile, when giving new fields, then they replace the stored ones', () => {
      expect(recorded(given(enabledEvent()).when(set({ faceVisible: false, avatarStyle: 'anime', vibeTags: ['chess'] })))).toMatchObject({
        face_visible: false,
        avatar_style: 'anime',
        vibe_tags: ['chess'],
      });
    });

    it('given nothing, when the avatar style is longer than 64 code points, then it is cut to 64', () => {
      const style = '🎨'.repeat(70);
      expect(recorded(given().when(set({ avatarStyle: style }))).avatar_style).toBe('🎨'.repeat(64));
    });

    it('given a stored style, when the avatar style is empty, then the default is used', () => {
      expect(recorded(given(enabledEvent()).when(set({ avatarStyle: '' }))).avatar_style).toBe('studio_ghibli');
    });

    it('given nothing, when sending twelve tags, then only the first ten are kept', () => {
      const tags = Array.from({ length: 12 }, (_, i) => `t${i}`);
      expect(recorded(given().when(set({ vibeTags: tags }))).vibe_tags).toEqual(tags.slice(0, 10));
    });

    it('given nothing, when a tag is longer than 40 code points, then it is cut to 40', () => {
      expect(recorded(given().when(set({ vibeTags: ['ü'.repeat(45), 'ok'] }))).vibe_tags).toEqual(['ü'.repeat(40), 'ok']);
    });

    it('given nothing, when some tags are blank, then they are left out before the ten are counted', () => {
      const tags = ['', ' ', ...Array.from({ length: 10 }, (_, i) => `t${i}`)];
      expect(recorded(given().when(set({ vibeTags: tags }))).vibe_tags).toEqual(tags.slice(2));
    });
  });

  describe('view and expiry', () => {
    it('given no events, when reading, then the SPEC defaults are shown', () => {
      expect(viewOf(given().state(), t0)).toEqual({
        enabled: false,
        expires_at: null,
        remaining_sec: 0,
        toggle_count_24h: 0,
        age_claim_18: false,
        face_visible: false,
        avatar_style: 'studio_ghibli',
        vibe_tags: [],
      });
    });

    it('given an enabled preference, when reading before expiry, then it is on with the whole seconds left', () => {
      expect(viewOf(given(enabledEvent()).state(), at(H + 500))).toEqual({
        enabled: true,
        expires_at: at(4 * H).toISOString(),
        remaining_sec: 3 * 3600 - 1,
        toggle_count_24h: 1,
        age_claim_18: true,
        face_visible: true,
        avatar_style: 'pixel',
        vibe_tags: ['hiking'],
      });
    });

    it('given an enabled preference, when reading at expires_at, then it reads as off with 0 left and the past expiry', () => {
      expect(viewOf(given(enabledEvent()).state(), at(4 * H))).toMatchObject({
        enabled: false,
        expires_at: at(4 * H).toISOString(),
        remaining_sec: 0,
      });
    });

    it('given an enabled preference, when time passes expires_at, then no event is needed: only the clock turns it off', () => {
      const state = given(enabledEvent()).state();
      expect(isDiscoverableAt(discoverablePreference(state), at(4 * H - 1))).toBe(true);
      expect(isDiscoverableAt(discoverablePreference(state), at(4 * H))).toBe(false);
      expect(state.status).toBe('enabled');
    });

    it('given a stored row, when checking it, then isDiscoverableAt reads the snake_case shape too', () => {
      expect(isDiscoverableAt({ enabled: true, expires_at: at(1000).toISOString() }, t0)).toBe(true);
      expect(isDiscoverableAt({ enabled: true, expires_at: null }, t0)).toBe(false);
      expect(isDiscoverableAt({ enabled: false, expires_at: at(1000).toISOString() }, t0)).toBe(false);
    });

    it('given a toggle window more than 24 h old, when reading, then toggle_count_24h is 0', () => {
      const state = given(enabledEvent({ toggle_count_24h: 4 })).state();
      expect(viewOf(state, at(24 * H)).toggle_count_24h).toBe(4);
      expect(viewOf(state, at(24 * H + 1)).toggle_count_24h).toBe(0);
    });
  });
});
