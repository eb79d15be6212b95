/**
 * `npm run projections:rebuild`: a read model rebuilt from the log by the CLI
 * equals the one the running service maintained.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/config';
import { createReadStore } from '../../src/infrastructure/ports.factory';
import { adapterEnv } from '../support/adapters';
import { startTestApp, uniqueName } from '../support/app';
import { startServiceProcess } from '../support/service-process';

jest.setTimeout(120_000);

async function snapshot(dataDir: string) {
  const store = await createReadStore(loadConfig({ DATA_DIR: dataDir, ...adapterEnv(dataDir) }));
  const result = {
    users: await store.collection('users').find({}, { sort: { _id: 1 } }),
    stats: await store.collection('account_stats').find({}),
    keys: await store.collection('api_keys').find({}, { sort: { _id: 1 } }),
    checkpoint: await store.getCheckpoint('users'),
  };
  await store.close();
  return result;
}

describe('projections:rebuild CLI', () => {
  it('given a service that wrote events, when the CLI rebuilds every read model, then they equal the live ones', async () => {
    const t = await startTestApp();
    for (let i = 0; i < 5; i++) {
      const username = uniqueName('rebuild');
      const reg = await t.request('POST', '/api/social/register', {
        body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
      });
      await t.request('POST', '/api/social/login', { body: { username, password: 'correct horse battery' } });
      await t.request('POST', '/api/v1/intelligence/keys', { token: reg.body.data.token, body: { name: 'k', tier: 'free' } });
    }
    await t.request('POST', '/api/social/auth/guest-register', { body: { guest_name: 'G' } });
    await t.close(false);
    const live = await snapshot(t.dataDir);
    expect(live.users).toHaveLength(6);

    const root = join(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', 'ts-node/register', join(root, 'src', 'cli', 'rebuild-projections.ts')],
      { cwd: root, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', DATA_DIR: t.dataDir, ...adapterEnv(t.dataDir) } },
    );
    // every read model in one pass over the log
    expect(stdout).toMatch(/users, .*accountStats.*: replayed \d+ events in [\d.]+ s = \d+ events\/s/);

    expect(await snapshot(t.dataDir)).toEqual(live);
    rmSync(t.dataDir, { recursive: true, force: true });
  });
});

describe('projections:rebuild beside a running service', () => {
  const rebuild = (dataDir: string, args: string[]) => {
    const root = join(__dirname, '..', '..');
    return promisify(execFile)(process.execPath, ['-r', 'ts-node/register', join(root, 'src', 'cli', 'rebuild-projections.ts'), ...args], {
      cwd: root,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', DATA_DIR: dataDir, ...adapterEnv(dataDir) },
    });
  };

  it('given a service running on the data folder, when rebuilding, then it refuses and names the process; --force rebuilds', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-rebuild-live-'));
    const service = await startServiceProcess(dataDir);
    try {
      const refused = await rebuild(dataDir, ['users']).then(
        () => null,
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused?.code).toBe(2);
      expect(refused?.stderr).toContain(`refusing to rebuild: a running service uses ${dataDir}: api process ${service.child.pid}`);
      const forced = await rebuild(dataDir, ['--force', 'users']);
      expect(forced.stdout).toMatch(/users: replayed \d+ events/);
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
