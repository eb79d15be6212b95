/**
 * The callers of the engine suites: an admin (SVC_ADMIN_USERS), an operator
 * granted by the admin and a plain user, each with a token.
 */
import { type TestApp, uniqueName } from './app';

const PASSWORD = 'correct horse battery';

export interface EngineCallers {
  admin: string;
  operator: string;
  user: string;
}

async function register(t: TestApp, username: string): Promise<{ id: string; token: string }> {
  const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: PASSWORD } });
  if (res.status !== 201) throw new Error(`registering ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, token: res.body.data.token };
}

/** `adminName` must be listed in the app's SVC_ADMIN_USERS. */
export async function engineCallers(t: TestApp, adminName: string): Promise<EngineCallers> {
  const admin = await register(t, adminName);
  const operatorName = uniqueName('op');
  const operator = await register(t, operatorName);
  const grant = await t.request('PUT', `/api/social/admin/users/${operator.id}/role`, { token: admin.token, body: { role: 'operator' } });
  if (grant.status !== 200) throw new Error(`granting operator: ${grant.status}`);
  const login = await t.request('POST', '/api/social/login', { body: { username: operatorName, password: PASSWORD } });
  const user = await register(t, uniqueName('user'));
  return { admin: admin.token, operator: login.body.data.token, user: user.token };
}
