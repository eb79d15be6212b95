/**
 * The device routes over HTTP (social-routes §19): link (201 new, 200 when
 * already linked: updated and reactivated), list the active bindings, unlink
 * by binding id (404 for another user's), and concurrent links of one
 * device by one user making one binding. One app for the file.
 */
import { signUp, startTestApp, type TestApp } from '../support/app';

jest.setTimeout(60_000);

const P = '/api/social';

interface User {
  id: string;
  token: string;
}

describe('sync devices over HTTP', () => {
  let t: TestApp;
  let ann: User;
  let bob: User;

  const register = (): Promise<User> => signUp(t, { prefix: 'dev' });
  const link = (user: User, body: unknown) => t.request('POST', `${P}/sync/link-device`, { token: user.token, body });
  const devices = async (user: User) => (await t.request('GET', `/social/sync/devices`, { token: user.token })).body.data as Array<{ id: string; device_id: string }>;

  beforeAll(async () => {
    t = await startTestApp();
    [ann, bob] = [await register(), await register()];
  });
  afterAll(async () => t?.close());

  it('given a new device, when linking it, then 201 with the binding and its defaults, listed among the devices', async () => {
    const res = await link(ann, { device_id: 'laptop-1', device_name: 'Work laptop' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^dev_[0-9a-f]{24}$/),
      user_id: ann.id,
      device_id: 'laptop-1',
      device_name: 'Work laptop',
      platform: 'web',
      form_factor: 'phone',
      capabilities: {},
      linked_at: expect.any(String),
      last_sync_at: null,
      is_active: true,
    });
    expect((await devices(ann)).find((d) => d.device_id === 'laptop-1')).toEqual(res.body.data);
    expect((await devices(bob)).map((d) => d.device_id)).not.toContain('laptop-1');
  });

  it('given a linked device, when linked again with new fields, then 200 with the same binding updated', async () => {
    const first = await link(ann, { device_id: 'tablet-1', platform: 'android' });
    const again = await link(ann, { device_id: 'tablet-1', form_factor: 'tablet', capabilities: { camera: true } });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id: first.body.data.id, platform: 'android', form_factor: 'tablet', capabilities: { camera: true }, linked_at: first.body.data.linked_at });
  });

  it('given a linked device, when its user unlinks it, then it leaves the list; linking it again reactivates it with 200', async () => {
    const { body } = await link(ann, { device_id: 'phone-old' });
    const unlinked = await t.request('DELETE', `${P}/sync/devices/${body.data.id}`, { token: ann.token });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.data).toEqual({ message: 'Device unlinked' });
    expect((await devices(ann)).map((d) => d.id)).not.toContain(body.data.id);
    const relinked = await link(ann, { device_id: 'phone-old' });
    expect(relinked.status).toBe(200);
    expect(relinked.body.data).toMatchObject({ id: body.data.id, is_active: true });
    expect((await devices(ann)).map((d) => d.id)).toContain(body.data.id);
  });

  it("given another user's binding, an unknown id, or an unlinked binding, when unlinking, then 404 Device not found and the binding stays", async () => {
    const { body } = await link(bob, { device_id: 'bob-phone' });
    for (const id of [body.data.id, 'dev_000000000000000000000000', 'nonsense']) {
      const res = await t.request('DELETE', `${P}/sync/devices/${id}`, { token: ann.token });
      expect([res.status, res.body]).toEqual([404, { success: false, error: 'Device not found' }]);
    }
    expect((await devices(bob)).map((d) => d.id)).toContain(body.data.id);
    await t.request('DELETE', `${P}/sync/devices/${body.data.id}`, { token: bob.token });
    expect((await t.request('DELETE', `${P}/sync/devices/${body.data.id}`, { token: bob.token })).status).toBe(404);
  });

  it('given two users, when both link the same device id, then each has a binding of their own', async () => {
    const [a, b] = [await link(ann, { device_id: 'shared-kiosk' }), await link(bob, { device_id: 'shared-kiosk' })];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });

  it('given one device, when its user links it 8 times at once, then one answer is 201, the others 200, and one binding exists', async () => {
    const replies = await Promise.all(Array.from({ length: 8 }, () => link(ann, { device_id: 'race-phone', device_name: 'Racer' })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect((await devices(ann)).filter((d) => d.device_id === 'race-phone')).toHaveLength(1);
  });

  it.each([
    [{}, 'device_id is required'],
    [{ device_id: '  ' }, 'device_id is required'],
    [{ device_id: 7 }, 'device_id must be a string of at most 200 characters'],
    [{ device_id: 'x', capabilities: [1] }, 'capabilities must be an object'],
    [{ device_id: 'x', platform: 3 }, 'platform must be a string of 1 to 50 characters'],
  ])('given the body %j, when linking, then 400 %s and nothing is linked', async (body, error) => {
    const res = await link(ann, body);
    expect([res.status, res.body]).toEqual([400, { success: false, error }]);
    expect((await devices(ann)).map((d) => d.device_id)).not.toContain('x');
  });

  it('given no token, when calling the device routes, then 401', async () => {
    expect((await t.request('GET', `${P}/sync/devices`)).status).toBe(401);
    expect((await t.request('POST', `${P}/sync/link-device`, { body: { device_id: 'x' } })).status).toBe(401);
  });
});
