import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import {
  byCurrentPubkeyDigest,
  ENCOUNTER_PROFILES,
  type EncounterProfileDoc,
  encounterProfilesProjection as projection,
} from './encounter-profiles.projection';
import { applyAll, recorded } from '../../../test/support/projection-kit';

const profile = { age_claim_18: true, face_visible: true, avatar_style: 'pixel', vibe_tags: ['jazz', 'tea'] };
const enabled = (user: string, at: string, count: number) =>
  recorded('DiscoverableEnabled', {
    user_id: user,
    ...profile,
    enabled_at: at,
    expires_at: '2026-04-10T04:00:00.000Z',
    ttl_sec: 14400,
    toggle_count_24h: count,
    toggle_window_start: '2026-04-10T00:00:00.000Z',
    last_toggle_at: at,
  });
const disabled = (user: string, at: string, count: number) =>
  recorded('DiscoverableDisabled', {
    user_id: user,
    ...profile,
    disabled_at: at,
    toggle_count_24h: count,
    toggle_window_start: '2026-04-10T00:00:00.000Z',
    last_toggle_at: at,
  });
const pubkey = (user: string, digest: string, at: string) => recorded('PubkeyRegistered', { user_id: user, pubkey_digest: digest, registered_at: at });

const docOf = (store: EmbeddedReadStore, id: string) => store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES).findOne({ _id: id });

describe('encounterProfiles projection', () => {
  it('given a pubkey registration only, then the preference exists with the SPEC defaults and the digest', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, pubkey('u1', 'd1', '2026-04-10T00:00:01.000Z'));
    expect(await docOf(store, 'u1')).toMatchObject({
      user_id: 'u1',
      enabled: false,
      enabled_at: null,
      expires_at: null,
      age_claim_18: false,
      face_visible: false,
      avatar_style: 'studio_ghibli',
      vibe_tags: [],
      toggle_count_24h: 0,
      toggle_window_start: null,
      last_toggle_at: null,
      current_pubkey_digest: 'd1',
      pubkey_registered_at: '2026-04-10T00:00:01.000Z',
    });
  });

  it('given enable then two pubkeys, then the registrations keep the preference and the later key is current', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(
      projection,
      store,
      enabled('u2', '2026-04-10T00:00:00.000Z', 1),
      pubkey('u2', 'old', '2026-04-10T00:00:02.000Z'),
      pubkey('u2', 'new', '2026-04-10T00:15:00.000Z'),
    );
    expect(await docOf(store, 'u2')).toMatchObject({
      enabled: true,
      enabled_at: '2026-04-10T00:00:00.000Z',
      expires_at: '2026-04-10T04:00:00.000Z',
      avatar_style: 'pixel',
      vibe_tags: ['jazz', 'tea'],
      toggle_count_24h: 1,
      current_pubkey_digest: 'new',
      pubkey_registered_at: '2026-04-10T00:15:00.000Z',
    });
  });

  it('given two pubkeys of one user, when looked up by digest, then only the later key finds the user', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, pubkey('u2', 'old', '2026-04-10T00:00:02.000Z'), pubkey('u2', 'new', '2026-04-10T00:15:00.000Z'));
    const profiles = store.collection<EncounterProfileDoc>(ENCOUNTER_PROFILES);
    expect(await profiles.findOne(byCurrentPubkeyDigest('new'))).toMatchObject({ _id: 'u2' });
    expect(await profiles.findOne(byCurrentPubkeyDigest('old'))).toBeNull();
  });

  it('given enable then disable, then expires_at is null, enabled_at stays and the window follows the event', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, enabled('u3', '2026-04-10T00:00:00.000Z', 1), disabled('u3', '2026-04-10T01:00:00.000Z', 2));
    expect(await docOf(store, 'u3')).toMatchObject({
      enabled: false,
      enabled_at: '2026-04-10T00:00:00.000Z',
      expires_at: null,
      toggle_count_24h: 2,
      last_toggle_at: '2026-04-10T01:00:00.000Z',
      current_pubkey_digest: null,
    });
  });

  it('given a disable first (no prior doc), then enabled_at is null', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, disabled('u4', '2026-04-10T01:00:00.000Z', 1));
    expect(await docOf(store, 'u4')).toMatchObject({ enabled: false, enabled_at: null, expires_at: null, toggle_count_24h: 1 });
  });

  it('given toggles and keys, when replayed and redelivered, then an older event never overwrites a newer state', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [
      enabled('u5', '2026-04-10T00:00:00.000Z', 1),
      pubkey('u5', 'k1', '2026-04-10T00:00:01.000Z'),
      disabled('u5', '2026-04-10T02:00:00.000Z', 2),
      pubkey('u5', 'k2', '2026-04-10T02:00:01.000Z'),
    ];
    await applyAll(projection, store, ...events);
    const once = await docOf(store, 'u5');
    await applyAll(projection, store, ...events);
    await applyAll(projection, store, events[0], events[1]);
    expect(await docOf(store, 'u5')).toEqual(once);
    expect(once).toMatchObject({ enabled: false, current_pubkey_digest: 'k2', toggle_count_24h: 2 });
  });
});
