/**
 * `npm run projections:rebuild` over the wallet economy: the wallets, the
 * ledger with its balances, the boosts and the boosted posts' boost_score
 * rebuilt from the log equal the ones the running service maintained.
 */
import { rmSync } from 'node:fs';
import { settled, startTestApp, uniqueName } from '../support/app';
import { readModelSnapshot, rebuildProjections } from '../support/rebuild';

jest.setTimeout(120_000);

const COLLECTIONS = ['resonance_wallets', 'resonance_transactions', 'resonance_boosts', 'posts'];

const snapshot = (dataDir: string) => readModelSnapshot(dataDir, COLLECTIONS);

describe('projections:rebuild of the wallet read models', () => {
  it('given rewards, check-ins, boosts and a refused boost, when rebuilt, then wallets, ledger and boosts equal the live ones', async () => {
    const t = await startTestApp();
    const users = [];
    for (let i = 0; i < 3; i++) {
      const username = uniqueName('rr');
      const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
      users.push({ id: res.body.data.id as string, token: res.body.data.token as string });
    }
    const [a, b, c] = users;
    const post = (await t.request('POST', '/api/social/posts', { token: a.token, body: { title: 'boost me' } })).body.data.id;
    for (const u of [b, c, b]) await t.request('POST', `/api/social/posts/${post}/comments`, { token: u.token, body: { content: 'hi' } });
    await t.request('POST', `/api/social/posts/${post}/upvote`, { token: b.token });
    for (const u of users) await t.request('POST', '/api/social/resonance/daily-checkin', { token: u.token });
    await t.request('GET', '/api/social/resonance/wallet', { token: c.token });
    await settled(t);
    expect((await t.request('POST', '/api/social/resonance/boost', { token: b.token, body: { target_type: 'post', target_id: post, spark_amount: 3 } })).status).toBe(200);
    expect((await t.request('POST', '/api/social/resonance/boost', { token: a.token, body: { target_type: 'user', target_id: b.id, spark_amount: 2 } })).status).toBe(200);
    expect((await t.request('POST', '/api/social/resonance/boost', { token: c.token, body: { target_type: 'post', target_id: post, spark_amount: 99 } })).status).toBe(400);
    await settled(t);
    await t.close(false);
    const live = await snapshot(t.dataDir);
    expect(live.resonance_wallets).toHaveLength(3);
    expect(live.resonance_boosts).toHaveLength(2);

    await rebuildProjections(t.dataDir);
    expect(await snapshot(t.dataDir)).toEqual(live);
    rmSync(t.dataDir, { recursive: true, force: true });
  });
});
