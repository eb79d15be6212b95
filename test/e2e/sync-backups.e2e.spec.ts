/**
 * The backup routes over HTTP (social-routes §19): an encrypted backup of the
 * caller's own profile, posts, comments and votes; its metadata; a restore
 * that re-applies only what is missing (never a duplicate, also under
 * concurrent restores), refuses a wrong passphrase with 400 and another
 * user's backup with 404; and a backup that survives a restart. One app for
 * the main file, a second pair for the restart.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(120_000);

const P = '/api/social';
const PASS = 'correct horse battery';
const NONE = { profile: false, posts: 0, comments: 0, votes: 0 };
const ADMIN = 'bakadmin';

interface User {
  id: string;
  token: string;
}

const register = (t: TestApp, username?: string): Promise<User> => signUp(t, { prefix: 'bak', username });

describe('sync backups over HTTP', () => {
  let t: TestApp;
  let ann: User;
  let bob: User;
  let admin: User;
  let annPost: string;
  let bobPost: string;
  let backupId: string;

  const call = (user: User | null, method: string, path: string, body?: unknown) => t.request(method as 'POST', `${P}${path}`, { token: user?.token, body });
  const created = async (user: User, path: string, body: unknown): Promise<string> => {
    const res = await call(user, 'POST', path, body);
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };
  const restore = (user: User, body: unknown = { passphrase: PASS }) => call(user, 'POST', '/sync/restore', body);
  const livePostsOf = async (user: User): Promise<Array<{ id: string; title: string; comment_count: number }>> => (await call(user, 'GET', `/users/${user.id}/posts?limit=100`)).body.data;
  const commentsOn = async (postId: string): Promise<Array<{ author_id: string; content: string; parent_id: string | null; is_deleted: boolean }>> =>
    (await call(null, 'GET', `/posts/${postId}/comments`)).body.data;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    [ann, bob] = [await register(t), await register(t)];
    admin = await register(t, ADMIN);
    expect((await call(ann, 'PATCH', `/users/${ann.id}`, { bio: 'Original bio' })).status).toBe(200);
    annPost = await created(ann, '/posts', { title: 'Ann secret title', content: 'first' });
    await created(ann, '/posts', { title: 'Ann second', content: 'second' });
    bobPost = await created(bob, '/posts', { title: 'Bob post', content: 'hello' });
    const top = await created(ann, `/posts/${annPost}/comments`, { content: 'ann top comment' });
    await created(ann, `/comments/${top}/reply`, { content: 'ann reply' });
    await created(ann, `/posts/${bobPost}/comments`, { content: 'ann on bob' });
    expect((await call(ann, 'POST', `/posts/${bobPost}/upvote`)).status).toBe(200);
  });
  afterAll(async () => t?.close());

  it.each([[{}], [{ passphrase: 'short' }], [{ passphrase: 12345678 }]])('given the body %j, when backing up, then 400 Passphrase must be at least 8 characters', async (body) => {
    expect(await call(ann, 'POST', '/sync/backup', body)).toMatchObject({ status: 400, body: { success: false, error: 'Passphrase must be at least 8 characters' } });
  });

  it('given a user with content, when backing up, then 201 with id, hash and size; the file under DATA_DIR holds no plaintext', async () => {
    const res = await call(ann, 'POST', '/sync/backup', { passphrase: PASS });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ backup_id: expect.stringMatching(/^bk_[0-9a-f]{24}$/), content_hash: expect.stringMatching(/^[0-9a-f]{64}$/), size_bytes: expect.any(Number) });
    backupId = res.body.data.backup_id;
    const file = readFileSync(join(t.dataDir, 'backups', ann.id, `${backupId}.bin`));
    expect(file.length).toBe(res.body.data.size_bytes);
    expect(file.includes(Buffer.from('Ann secret title'))).toBe(false);
  });

  it('given a backup, then its metadata is listed for its user only, newest first, and the event holds no passphrase or content', async () => {
    const mine = await call(ann, 'GET', '/sync/backup/metadata');
    expect(mine.body.data[0]).toMatchObject({
      backup_id: backupId,
      user_id: ann.id,
      cipher: 'aes-256-gcm',
      kdf: 'scrypt',
      kdf_params: { N: 32768, r: 8, p: 1, key_length: 32 },
      counts: { profile: true, posts: 2, comments: 3, votes: 1 },
      restore_count: 0,
    });
    expect((await call(bob, 'GET', '/sync/backup/metadata')).body.data).toEqual([]);
    const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`userBackups-${ann.id}`);
    const text = JSON.stringify(events);
    expect(text).not.toContain(PASS);
    expect(text).not.toContain('Ann secret title');
  });

  it('given a wrong passphrase, when restoring, then 400 and nothing is restored', async () => {
    expect(await restore(ann, { passphrase: 'wrong horse battery' })).toMatchObject({ status: 400, body: { success: false, error: 'Invalid passphrase or corrupted backup' } });
    expect(await restore(ann, {})).toMatchObject({ status: 400, body: { error: 'Passphrase is required' } });
  });

  it("given ann's backup id, when bob restores it, then 404 Backup not found; bob without backups gets 400 No backups found", async () => {
    expect(await restore(bob, { passphrase: PASS })).toMatchObject({ status: 400, body: { error: 'No backups found' } });
    await call(bob, 'POST', '/sync/backup', { passphrase: PASS });
    expect(await restore(bob, { passphrase: PASS, backup_id: backupId })).toMatchObject({ status: 404, body: { success: false, error: 'Backup not found' } });
  });

  it('given nothing changed since the backup, when restoring, then nothing is restored', async () => {
    expect(await restore(ann)).toMatchObject({ status: 200, body: { success: true, data: NONE } });
  });

  it('given ann deleted a post with her comments under it, a comment, her vote and changed her bio, when restoring, then exactly those come back, once', async () => {
    const onBob = (await call(null, 'GET', `/posts/${bobPost}/comments`)).body.data.find((c: { author_id: string }) => c.author_id === ann.id);
    expect((await call(ann, 'DELETE', `/posts/${annPost}`)).status).toBe(200);
    expect((await call(ann, 'DELETE', `/comments/${onBob.id}`)).status).toBe(200);
    expect((await call(ann, 'DELETE', `/posts/${bobPost}/vote`)).status).toBe(200);
    await call(ann, 'PATCH', `/users/${ann.id}`, { bio: 'Changed' });

    const res = await restore(ann);
    expect(res).toMatchObject({ status: 200, body: { data: { profile: true, posts: 1, comments: 3, votes: 1 } } });
    const restoredPost = (await livePostsOf(ann)).find((p) => p.title === 'Ann secret title')!;
    expect(restoredPost.id).not.toBe(annPost);
    const thread = await commentsOn(restoredPost.id);
    expect(thread.map((c) => c.content).sort()).toEqual(['ann reply', 'ann top comment']);
    expect(thread.find((c) => c.content === 'ann reply')!.parent_id).not.toBeNull();
    expect((await commentsOn(bobPost)).filter((c) => c.content === 'ann on bob' && !c.is_deleted)).toHaveLength(1);
    expect((await call(ann, 'GET', `/posts/${bobPost}`)).body.data).toMatchObject({ upvotes: 1 });
    expect((await call(null, 'GET', `/users/${ann.id}`)).body.data).toMatchObject({ bio: 'Original bio' });

    expect(await restore(ann, { passphrase: PASS, backup_id: backupId })).toMatchObject({ status: 200, body: { data: NONE } });
    expect((await livePostsOf(ann)).filter((p) => p.title === 'Ann secret title')).toHaveLength(1);
    expect((await call(ann, 'GET', '/sync/backup/metadata')).body.data[0]).toMatchObject({ backup_id: backupId, restore_count: 3 });
  });

  it("given restores never touch other users' data, then bob's post and votes are as bob left them", async () => {
    expect((await livePostsOf(bob)).map((p) => p.title)).toEqual(['Bob post']);
    expect((await call(bob, 'GET', `/posts/${bobPost}`)).body.data).toMatchObject({ author_id: bob.id, title: 'Bob post' });
  });

  it('given a deleted post, when ann restores 4 times at once, then it is re-published once', async () => {
    const second = (await livePostsOf(ann)).find((p) => p.title === 'Ann second')!;
    expect((await call(ann, 'DELETE', `/posts/${second.id}`)).status).toBe(200);
    const replies = await Promise.all(Array.from({ length: 4 }, () => restore(ann)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(replies.reduce((sum, r) => sum + r.body.data.posts, 0)).toBe(1);
    expect((await livePostsOf(ann)).filter((p) => p.title === 'Ann second')).toHaveLength(1);
  });

  it('given a post deleted by moderation, when its author restores, then it stays deleted', async () => {
    const post = await created(ann, '/posts', { title: 'Moderated', content: 'x' });
    await call(ann, 'POST', '/sync/backup', { passphrase: PASS });
    expect((await call(admin, 'DELETE', `/admin/moderation/posts/${post}`)).status).toBe(200);
    expect(await restore(ann)).toMatchObject({ status: 200, body: { data: { posts: 0 } } });
    expect((await livePostsOf(ann)).filter((p) => p.title === 'Moderated')).toEqual([]);
  });

  it('given the backup file is gone, when restoring, then 400 Backup file not found', async () => {
    const made = await call(bob, 'POST', '/sync/backup', { passphrase: PASS });
    rmSync(join(t.dataDir, 'backups', bob.id, `${made.body.data.backup_id}.bin`));
    expect(await restore(bob, { passphrase: PASS })).toMatchObject({ status: 400, body: { error: 'Backup file not found' } });
  });

  it('given no token, when calling the backup routes, then 401', async () => {
    expect((await call(null, 'POST', '/sync/backup', { passphrase: PASS })).status).toBe(401);
    expect((await call(null, 'GET', '/sync/backup/metadata')).status).toBe(401);
    expect((await call(null, 'POST', '/sync/restore', { passphrase: PASS })).status).toBe(401);
  });
});

describe('a backup across a restart', () => {
  it('given a backup, when the service restarts on the same DATA_DIR, then it is listed and restores a post deleted meanwhile', async () => {
    const first = await startTestApp();
    const user = await register(first);
    const post = await first.request('POST', `${P}/posts`, { token: user.token, body: { title: 'Survivor', content: 'x' } });
    const made = await first.request('POST', `${P}/sync/backup`, { token: user.token, body: { passphrase: PASS } });
    await first.request('DELETE', `${P}/posts/${post.body.data.id}`, { token: user.token });
    await first.close(false);

    const second = await startTestApp({}, first.dataDir);
    try {
      expect(existsSync(join(first.dataDir, 'backups', user.id, `${made.body.data.backup_id}.bin`))).toBe(true);
      expect((await second.request('GET', `${P}/sync/backup/metadata`, { token: user.token })).body.data.map((b: { backup_id: string }) => b.backup_id)).toEqual([made.body.data.backup_id]);
      const res = await second.request('POST', `${P}/sync/restore`, { token: user.token, body: { passphrase: PASS } });
      expect(res).toMatchObject({ status: 200, body: { data: { posts: 1 } } });
    } finally {
      await second.close();
    }
  });
});

describe('passphrase guessing', () => {
  it('given the backup bucket at 2 a minute, when a user tries a third passphrase, then 429 names the bucket', async () => {
    const t = await startTestApp({ SOCIAL_RATE_LIMIT_DISABLED: '0', RATE_LIMIT_BACKUP: '2/1m' });
    try {
      const user = await register(t);
      const guess = () => t.request('POST', `${P}/sync/restore`, { token: user.token, body: { passphrase: 'guess guess' } });
      expect((await guess()).status).toBe(400);
      expect((await guess()).status).toBe(400);
      expect(await guess()).toMatchObject({ status: 429, body: { success: false, error: 'Rate limit exceeded for backup. Try again later.' } });
    } finally {
      await t.close();
    }
  });
});
