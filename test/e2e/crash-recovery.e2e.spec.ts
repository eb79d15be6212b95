/**
 * kill -9 during a burst of writes, then restart on the same DATA_DIR: every
 * acknowledged write is there, and the projections catch up without double
 * counting (the $inc counters of account_stats equal the events in the log).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from '../support/app';
import { eventually } from '../support/eventually';
import { startServiceProcess } from '../support/service-process';

jest.setTimeout(120_000);

describe('crash recovery', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('given a burst of registrations killed with SIGKILL, when restarted, then every acknowledged user exists and counters are exact', async () => {
    const first = await startServiceProcess(dataDir);
    const acknowledged: { username: string; id: string }[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const username = `crash${w}x${n}`;
        try {
          const res = await request(first.url, 'POST', '/api/social/register', {
            body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
          });
          if (res.status === 201) acknowledged.push({ username, id: res.body.data.id });
        } catch {
          return; // the server is gone
        }
      }
    };
    const writers = Array.from({ length: 16 }, (_, w) => writer(w));
    await eventually('80 acknowledged registrations', () => acknowledged.length >= 80, { timeoutMs: 60_000 });
    first.child.kill('SIGKILL');
    await first.exited;
    stop = true;
    await Promise.all(writers);

    const second = await startServiceProcess(dataDir, { SVC_ADMIN_USERS: 'crashboss' });
    try {
      for (const { username, id } of acknowledged) {
        const login = await request(second.url, 'POST', '/api/social/login', { body: { username, password: 'correct horse battery' } });
        expect(login.status).toBe(200);
        expect(login.body.data.user.id).toBe(id);
      }
      const boss = await request(second.url, 'POST', '/api/social/register', {
        body: { username: 'crashboss', email: 'boss@example.com', password: 'correct horse battery' },
      });
      const stats = await request(second.url, 'GET', '/api/social/admin/stats', { token: boss.body.data.token });

      const db = new Database(join(dataDir, 'events.db'), { readonly: true });
      const count = (type: string) =>
        (db.prepare('SELECT count(*) AS n FROM events WHERE type = ?').get(type) as { n: number }).n;
      const registeredInLog = count('UserRegistered');
      const loginsInLog = count('UserLoggedIn');
      db.close();

      expect(registeredInLog).toBeGreaterThanOrEqual(acknowledged.length + 1);
      expect(stats.body.data.total_users).toBe(registeredInLog);
      expect(stats.body.data.logins).toBe(loginsInLog);
    } finally {
      second.child.kill('SIGTERM');
      const code = await second.exited;
      if (code !== 0) process.stderr.write(second.output()); // the service log explains a failed shutdown
      expect(code).toBe(0);
    }
  });
});
