/**
 * Registrations under load (issue 12): a burst of sign-ups from concurrent
 * clients is answered 201 every time (never a 503 for an account that was in
 * fact created), and every account it created can log in at once. Runs on the
 * embedded default and, in the `e2e:mongodb+kafka` project, on the production
 * stack. Not timed: it states correctness under load, the bench measures speed.
 */
import { startTestApp, type TestApp, uniqueName } from '../support/app';

const REGISTRATIONS = 200;
const CLIENTS = 16;
const PASSWORD = 'correct horse battery';

/** Runs `work` for every item with at most `clients` in flight, in order of the items. */
async function withClients<T, R>(items: readonly T[], clients: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const client = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return results;
}

describe('registrations under load', () => {
  let t: TestApp;
  beforeAll(async () => {
    // argon2id at its floor: the test is about the write path, not the hash
    t = await startTestApp({ PASSWORD_HASH_MEMORY_KIB: '1024' });
  });
  afterAll(() => t.close());

  it(`given ${CLIENTS} concurrent clients, when they register ${REGISTRATIONS} users, then every registration answers 201 and every account logs in`, async () => {
    const prefix = uniqueName('load');
    const usernames = Array.from({ length: REGISTRATIONS }, (_, i) => `${prefix}x${i}`);

    const registered = await withClients(usernames, CLIENTS, (username) =>
      t.request('POST', '/api/social/register', {
        body: { username, email: `${username}@example.com`, password: PASSWORD },
      }),
    );

    const refused = registered
      .map((res, i) => ({ username: usernames[i], status: res.status, body: res.body }))
      .filter((r) => r.status !== 201);
    expect(refused).toEqual([]);
    expect(registered.map((res) => res.body.data.username)).toEqual(usernames);

    const logins = await withClients(usernames, CLIENTS, (username) =>
      t.request('POST', '/api/social/login', { body: { username, password: PASSWORD } }),
    );

    const failed = logins
      .map((res, i) => ({ username: usernames[i], status: res.status, body: res.body }))
      .filter((r) => r.status !== 200 || typeof r.body?.data?.token !== 'string');
    expect(failed).toEqual([]);
    expect(logins.map((res) => res.body.data.user.username)).toEqual(usernames);
  }, 120_000);
});
