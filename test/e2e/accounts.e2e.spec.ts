import { startTestApp, type TestApp, uniqueName } from '../support/app';

describe('accounts over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: 'rootadmin' });
  });
  afterAll(() => t.close());

  async function register(username = uniqueName(), extra: Record<string, unknown> = {}) {
    return t.request('POST', '/api/social/auth/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery', ...extra },
    });
  }

  describe('register', () => {
    it('given a new username, when registering, then 201 with the user and a working token', async () => {
      const username = uniqueName();
      const res = await register(username, { display_name: 'Ada' });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ username, email: `${username}@example.com`, display_name: 'Ada', role: 'user' });
      expect(typeof res.body.data.id).toBe('string');
      const me = await t.request('GET', '/api/social/auth/me', { token: res.body.data.token });
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(res.body.data.id);
    });

    it('given a taken username in another case, when registering, then 409 with success false', async () => {
      const username = uniqueName();
      await register(username);
      const res = await register(username.toUpperCase(), { email: `other-${username}@example.com` });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ success: false, error: 'Username already taken' });
    });

    it('given a registered e-mail, when another username registers with it, then 409 and the username stays free', async () => {
      const first = uniqueName();
      await register(first);
      const second = uniqueName();
      const clash = await register(second, { email: `${first}@example.com` });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toBe('Email already registered');
      expect((await register(second)).status).toBe(201);
    });

    it('given many concurrent registrations of one username, then exactly one succeeds and the rest get 409', async () => {
      const username = uniqueName();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => register(username, { email: `${username}-${i}@example.com` })),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(7);
    });

    it.each([
      ['a weak password', { password: 'short' }, /password/],
      ['a malformed e-mail', { email: 'not-an-email' }, /email/],
      ['a bad username', { username: 'no spaces allowed' }, /username/],
      ['a number as username', { username: 12345 }, /username/],
    ])('given %s, when registering, then 400 naming the field', async (_, override, message) => {
      const res = await t.request('POST', '/api/social/auth/register', {
        body: { username: uniqueName(), email: `${uniqueName()}@example.com`, password: 'correct horse battery', ...override },
      });
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.error).toMatch(message);
    });

    it('given a missing password, when registering, then 400', async () => {
      const res = await t.request('POST', '/api/social/auth/register', { body: { username: uniqueName(), email: 'a@b.co' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/password/);
    });

    it('given a username listed in SVC_ADMIN_USERS, when it registers, then its role is admin', async () => {
      const res = await register('rootadmin');
      expect(res.status).toBe(201);
      expect(res.body.data.role).toBe('admin');
    });

    it('given the bootstrap alias, when registering at /api/social/register, then it behaves the same', async () => {
      const username = uniqueName();
      const res = await t.request('POST', '/api/social/register', {
        body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.username).toBe(username);
    });
  });

  describe('login and logout', () => {
    it.each(['/api/social/auth/login', '/api/social/login', '/social/auth/login'])(
      'given a registered user, when logging in at %s, then {user, token}',
      async (path) => {
        const username = uniqueName();
        await register(username);
        const res = await t.request('POST', path, { body: { username, password: 'correct horse battery' } });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(res.body.data.user.username).toBe(username);
        expect(res.body.data.user.last_active_at).not.toBeNull();
        expect(typeof res.body.data.token).toBe('string');
      },
    );

    it('given an unknown user or a wrong password, when logging in, then the same 401 text', async () => {
      const username = uniqueName();
      await register(username);
      const wrong = await t.request('POST', '/api/social/login', { body: { username, password: 'wrong password!' } });
      const unknown = await t.request('POST', '/api/social/login', { body: { username: uniqueName(), password: 'whatever1' } });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body).toEqual({ success: false, error: 'Invalid username or password' });
      expect(unknown.body).toEqual(wrong.body);
    });

    it('given a session, when logging out, then the same token is refused afterwards', async () => {
      const { body } = await register();
      const token = body.data.token;
      const out = await t.request('POST', '/api/social/auth/logout', { token });
      expect(out.status).toBe(200);
      expect(out.body.success).toBe(true);
      const me = await t.request('GET', '/api/social/auth/me', { token });
      expect(me.status).toBe(401);
      expect(me.body.success).toBe(false);
    });

    it('given no token, when calling /auth/me, then 401 unauthenticated', async () => {
      const res = await t.request('GET', '/api/social/auth/me');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'unauthenticated' });
    });

    it('given a forged token, when calling /auth/me, then 401', async () => {
      const res = await t.request('GET', '/api/social/auth/me', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.bad' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, error: 'Invalid or expired token' });
    });
  });

  describe('guests', () => {
    it('given a guest name, when registering as a guest, then 201 with a guest user, token and recovery code', async () => {
      const res = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Night Owl' } });
      expect(res.status).toBe(201);
      expect(res.body.data.user.username).toMatch(/^guest_night_owl_[0-9a-f]{6}$/);
      expect(res.body.data.user.role).toBe('guest');
      expect(res.body.data.recovery_code.split(' ')).toHaveLength(6);
      expect(res.body.data.existing).toBe(false);
      expect((await t.request('GET', '/api/social/auth/me', { token: res.body.data.token })).status).toBe(200);
    });

    it('given a recovery code, when recovering, then a session and a new code; the old code is then refused', async () => {
      const guest = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Lark' } });
      const code = guest.body.data.recovery_code as string;
      const recovered = await t.request('POST', '/api/social/auth/guest-recover', { body: { recovery_code: code.toUpperCase() } });
      expect(recovered.status).toBe(200);
      expect(recovered.body.data.user.id).toBe(guest.body.data.user.id);
      expect(recovered.body.data.recovery_code).not.toBe(code);
      const again = await t.request('POST', '/api/social/auth/guest-recover', { body: { recovery_code: code } });
      expect(again.status).toBe(401);
      expect(again.body).toEqual({ success: false, error: 'Invalid recovery code' });
    });

    it('given a device already on file, when registering a guest from it, then 200 with the same guest and existing true', async () => {
      const deviceId = uniqueName('device');
      const first = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'A', device_id: deviceId } });
      const second = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'B', device_id: deviceId } });
      expect(first.status).toBe(201);
      expect(second.status).toBe(200);
      expect(second.body.data).toMatchObject({ existing: true, recovery_code: null });
      expect(second.body.data.user.id).toBe(first.body.data.user.id);
    });

    it('given concurrent first visits from one device, then they all end in one guest account', async () => {
      const deviceId = uniqueName('device');
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Racer', device_id: deviceId } }),
        ),
      );
      expect(results.every((r) => r.status === 200 || r.status === 201)).toBe(true);
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.data.user.id)).size).toBe(1);
    });

    it('given a guest, when logging in with a password, then 401', async () => {
      const guest = await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'Pw' } });
      const res = await t.request('POST', '/api/social/login', {
        body: { username: guest.body.data.user.username, password: 'anything-at-all' },
      });
      expect(res.status).toBe(401);
    });
  });

  describe('roles', () => {
    it('given an admin, when granting operator to a user, then the user reads as operator', async () => {
      const admin = await t.request('POST', '/api/social/login', { body: { username: 'rootadmin', password: 'correct horse battery' } });
      const target = await register();
      const res = await t.request('PUT', `/api/social/admin/users/${target.body.data.id}/role`, {
        token: admin.body.data.token,
        body: { role: 'operator' },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.role).toBe('operator');
      const me = await t.request('GET', '/api/social/auth/me', { token: target.body.data.token });
      expect(me.body.data.role).toBe('operator');
    });

    it('given a plain user, when changing a role, then 403', async () => {
      const user = await register();
      const res = await t.request('PUT', `/api/social/admin/users/${user.body.data.id}/role`, {
        token: user.body.data.token,
        body: { role: 'admin' },
      });
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    });
  });
});
