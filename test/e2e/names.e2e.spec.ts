/**
 * Names shown to other people (display names, guest names, API key names,
 * the encounter card's avatar style and vibe tags) are NFC and hold no
 * control, bidi or invisible characters: 400 naming the field.
 */
import { startTestApp, type TestApp, uniqueName } from '../support/app';

const RULE = 'must not contain control, bidi or invisible characters';

describe('names', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    const username = uniqueName('names');
    const registered = await t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    token = registered.body.data.token;
  });
  afterAll(() => t.close());

  const register = (display_name: string) => {
    const username = uniqueName('names');
    return t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery', display_name },
    });
  };

  it('given a display name with a right-to-left override, when registering, then 400 naming display_name', async () => {
    const res = await register('evil\u202Egnp.exe');
    expect(res).toMatchObject({ status: 400, body: { success: false, error: `display_name ${RULE}` } });
  });

  it('given a display name with a decomposed accent, when registering, then it is kept in NFC', async () => {
    const res = await register('Jose\u0301');
    expect(res.status).toBe(201);
    expect(res.body.data.display_name).toBe('Jos\u00e9');
  });

  it('given a right-to-left display name with an emoji, when registering, then it is taken as given', async () => {
    const res = await register('مريم 👩‍💻');
    expect(res.status).toBe(201);
    expect(res.body.data.display_name).toBe('مريم 👩‍💻');
  });

  it('given a guest name with a zero-width space, when registering a guest, then 400 naming guest_name', async () => {
    const res = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'ad\u200Bmin' } });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: `guest_name ${RULE}` } });
  });

  it('given an API key name with a newline, when issuing a key, then 400 naming name', async () => {
    const res = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'ci\nkey', tier: 'free' } });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: `name ${RULE}` } });
  });

  it('given a vibe tag with a bidi isolate, when going discoverable, then 400 naming the tag', async () => {
    const res = await t.request('POST', '/api/social/encounter/discoverable', { token, body: { enabled: true, vibe_tags: ['jazz', '\u2067x\u2069'] } });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: `vibe_tags[1] ${RULE}` } });
  });

  it('given an avatar style with a control character, when going discoverable, then 400 naming avatar_style', async () => {
    const res = await t.request('POST', '/api/social/encounter/discoverable', { token, body: { enabled: true, avatar_style: 'pixel\u0007' } });
    expect(res).toMatchObject({ status: 400, body: { success: false, error: `avatar_style ${RULE}` } });
  });
});
