/**
 * Crypto-shredding (issue 17, item 4) end to end: a user with posts,
 * comments, location pings, a missed connection, an encounter with an
 * icebreaker and a chat is erased with DELETE /users/{id}/data
 * ?erase_content=true. Then no read model, no rebuild of them from the log,
 * no decrypted read of the log and no byte of the event file holds their
 * e-mail address, texts or coordinates, while the other user's data stays.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERSONAL_DATA } from '../../src/aggregates/personal-data';
import { projectionsDigest } from '../../src/cli/projections-digest';
import { AuditQueries } from '../../src/modules/audit/audit.queries';
import { loadConfig } from '../../src/config/config';
import { UpcasterRegistry } from '../../src/infrastructure/eventsourcing/upcasters';
import { createEventStore, createKeyStore } from '../../src/infrastructure/ports.factory';
import { READ_STORE, type ReadStore } from '../../src/infrastructure/read-store/read-store.port';
import { ALL_PROJECTIONS } from '../../src/projections';
import { settled, startTestApp, type TestApp, testAppEnv, uniqueLetters } from '../support/app';
import { discoverableUser, type EncounterUser, mutualLike, post } from '../support/encounter';
import { readModelSnapshot, rebuildProjections } from '../support/rebuild';

jest.setTimeout(120_000);

const P = '/api/social';
const COLLECTIONS = [...new Set(ALL_PROJECTIONS.flatMap((p) => p.collections))];

describe('erasure by crypto-shredding', () => {
  let t: TestApp;
  let dataDir: string;
  let erased: EncounterUser;
  let kept: EncounterUser;
  const mark = uniqueLetters('zq');
  /** what must disappear: the erased user's e-mail, texts and coordinates */
  const secrets = {
    email: '',
    postTitle: `title ${mark} one`,
    postBody: `body ${mark} two`,
    comment: `comment ${mark} three`,
    missed: `scarf ${mark} four`,
    icebreaker: `hello ${mark} five`,
    prompt: `prompt ${mark} six`,
    pingLat: '12.345678',
    sightingLat: '21.987654',
  };
  const keptText = `kept ${mark} post`;

  beforeAll(async () => {
    t = await startTestApp();
    dataDir = t.dataDir;
    erased = await discoverableUser(t);
    kept = await discoverableUser(t);
    secrets.email = `${erased.username}@example.com`;
    const as = (user: EncounterUser, method: string, path: string, body?: unknown) => t.request(method, `${P}${path}`, { token: user.token, body });
    const published = await as(erased, 'POST', '/posts', { title: secrets.postTitle, content: secrets.postBody });
    expect(published.status).toBe(201);
    expect((await as(erased, 'POST', `/posts/${published.body.data.id}/comments`, { content: secrets.comment })).status).toBe(201);
    expect((await as(kept, 'POST', '/posts', { title: keptText, content: 'stays' })).status).toBe(201);
    expect((await as(erased, 'POST', '/encounters/location-ping', { lat: Number(secrets.pingLat), lon: 98.765432 })).status).toBe(200);
    const missed = await as(erased, 'POST', '/encounters/missed-connections', {
      lat: 52.52,
      lon: 13.405,
      location_name: 'Cafe',
      description: secrets.missed,
      was_at: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    });
    expect(missed.status).toBe(201);
    const matchId = await mutualLike(t, erased, kept, { a: { lat: Number(secrets.sightingLat), lng: 3.5 }, b: { lat: 40.5, lng: 3.5 } });
    expect((await post(t, erased, '/icebreaker/approve', { match_id: matchId, text: secrets.icebreaker })).status).toBe(200);
    const chat = await t.request('POST', '/chat', { token: erased.token, body: { user_id: erased.id, prompt_id: 'p1', prompt: secrets.prompt, casual_conv: true } });
    expect(chat.status).toBe(200);
    expect((await as(erased, 'POST', '/sync/backup', { passphrase: 'a long passphrase' })).status).toBe(201);
    await settled(t);
  });
  afterAll(async () => t?.close());

  const leaks = (text: string) => Object.entries(secrets).filter(([, secret]) => text.includes(secret)).map(([name]) => name);

  it('given the data before the erasure, then the read models hold it (the check below can fail)', async () => {
    const snapshot = JSON.stringify(await readModelSnapshotOf(t));
    expect(leaks(snapshot)).toEqual(expect.arrayContaining(['email', 'postTitle', 'postBody', 'comment', 'missed', 'pingLat']));
  });

  it('given the log file, then it never held any of it in plain text', () => {
    const file = readFileSync(join(dataDir, 'events.db')).toString('latin1');
    expect(leaks(file)).toEqual([]);
  });

  describe('when the user erases their data and content', () => {
    beforeAll(async () => {
      const res = await t.request('DELETE', `${P}/users/${erased.id}/data?erase_content=true`, { token: erased.token });
      expect(res.status).toBe(200);
      await settled(t);
    });

    it('then no read model holds their e-mail, texts or coordinates, and the other user keeps theirs', async () => {
      const snapshot = JSON.stringify(await readModelSnapshotOf(t));
      expect(leaks(snapshot)).toEqual([]);
      expect(snapshot).toContain(keptText);
    });

    it('then their backups are forgotten and their files deleted', async () => {
      expect((await t.request('GET', `${P}/sync/backup/metadata`, { token: kept.token })).status).toBe(200);
      expect(await t.app.get<ReadStore>(READ_STORE).collection('backups').find({ user_id: erased.id })).toEqual([]);
      expect(existsSync(join(dataDir, 'backups', erased.id))).toBe(false);
    });

    it('then a decrypted read of the whole log holds none of it', async () => {
      const config = loadConfig(testAppEnv(dataDir));
      const store = await createEventStore(config, new UpcasterRegistry(), { catalogue: PERSONAL_DATA, keys: await createKeyStore(config) });
      try {
        expect(leaks(JSON.stringify(await store.readAll()))).toEqual([]);
      } finally {
        await store.close();
      }
    });

    it('then a rebuild of every read model from the log cannot bring it back, and gives the read models the live node had', async () => {
      const live = await t.app.get(AuditQueries).digest();
      await t.close(false);
      await rebuildProjections(dataDir);
      const snapshot = JSON.stringify(await readModelSnapshot(dataDir, COLLECTIONS));
      expect(leaks(snapshot)).toEqual([]);
      expect(snapshot).toContain(keptText);
      expect(await projectionsDigest(loadConfig(testAppEnv(dataDir)))).toEqual(live);
      t = await startTestApp({}, dataDir);
    });

    it('given an erasure without erase_content by another user, then their posts stay and their e-mail goes', async () => {
      const author = await discoverableUser(t);
      const text = `stays ${uniqueLetters('zk')}`;
      expect((await t.request('POST', `${P}/posts`, { token: author.token, body: { title: text } })).status).toBe(201);
      expect((await t.request('DELETE', `${P}/users/${author.id}/data`, { token: author.token })).status).toBe(200);
      await settled(t);
      const snapshot = JSON.stringify(await readModelSnapshotOf(t));
      expect(snapshot).toContain(text);
      expect(snapshot).not.toContain(`${author.username}@example.com`);
    });

    it('given a non-boolean erase_content, then 400', async () => {
      const res = await t.request('DELETE', `${P}/users/${kept.id}/data?erase_content=maybe`, { token: kept.token });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('erase_content must be a boolean');
    });
  });
});

/** Every document of every read model of a running app. */
async function readModelSnapshotOf(t: TestApp): Promise<Record<string, unknown[]>> {
  const store = t.app.get<ReadStore>(READ_STORE);
  const result: Record<string, unknown[]> = {};
  for (const name of COLLECTIONS) result[name] = await store.collection(name).find({});
  return result;
}
