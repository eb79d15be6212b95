/**
 * Scaled-out topology: an API node with PROJECTIONS=off (stateless) and a
 * worker process-role running the projections, sharing MongoDB. A client
 * still reads its own writes: the API node waits on the worker's checkpoints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/config';
import { adapterMode } from '../support/adapters';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { describeWithService, serviceEndpoint } from '../support/services/registry';

jest.setTimeout(120_000);

// One run is enough: this suite sets its own adapters.
const describeOnce: typeof describeWithService =
  adapterMode() === 'embedded' ? describeWithService : (_name, title, body) => describe.skip(title, body);

describeOnce('mongo', 'API node and worker', () => {
  let dataDir: string;
  let worker: INestApplicationContext;
  let api: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'svc-split-'));
    const shared = {
      DATA_DIR: dataDir,
      READ_STORE: 'mongodb',
      MONGO_URL: serviceEndpoint('mongo')!,
      MONGO_DATABASE: `split_${Date.now()}`,
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_MEMORY_KIB: '4096',
    };
    worker = await NestFactory.createApplicationContext(AppModule.forRoot(loadConfig(shared), 'worker'), { logger: false });
    await worker.init();
    api = await startTestApp({ ...shared, PROJECTIONS: 'off' }, dataDir);
  });
  afterAll(async () => {
    await api?.close(false);
    await worker?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('given projections run in the worker, when a client registers then reads, then it sees its write', async () => {
    const username = uniqueName('split');
    const reg = await api.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    expect(reg.status).toBe(201);
    const me = await api.request('GET', '/api/social/auth/me', { token: reg.body.data.token });
    expect(me.status).toBe(200);
    expect(me.body.data.username).toBe(username);
    const out = await api.request('POST', '/api/social/auth/logout', { token: reg.body.data.token });
    expect(out.status).toBe(200);
    expect((await api.request('GET', '/api/social/auth/me', { token: reg.body.data.token })).status).toBe(401);
  });
});
