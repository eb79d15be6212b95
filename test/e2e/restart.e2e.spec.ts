/** What a client wrote is still there after the service restarts on the same DATA_DIR. */
import { startTestApp, uniqueName } from '../support/app';

describe('restart', () => {
  it('given a registered user and a revoked token, when the service restarts, then login works and the token stays revoked', async () => {
    const first = await startTestApp();
    const username = uniqueName();
    const reg = await first.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    await first.request('POST', '/api/social/auth/logout', { token: reg.body.data.token });
    await first.close(false);

    const second = await startTestApp({}, first.dataDir);
    try {
      const login = await second.request('POST', '/api/social/login', { body: { username, password: 'correct horse battery' } });
      expect(login.status).toBe(200);
      expect(login.body.data.user.id).toBe(reg.body.data.id);
      expect((await second.request('GET', '/api/social/auth/me', { token: reg.body.data.token })).status).toBe(401);
      expect((await second.request('GET', '/api/social/auth/me', { token: login.body.data.token })).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
