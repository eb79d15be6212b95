import { deciderKit } from '../../../test/support/decider-kit';
import { DEVICE_NOT_FOUND, deviceBindingDecider, deviceBindingId, type DeviceBindingCommand } from './device-binding';

const t0 = new Date('2026-11-24T10:00:00.000Z');
const at = t0.toISOString();
const { given, history } = deciderKit(deviceBindingDecider, t0);
const id = deviceBindingId('ann', 'phone-1');
const link = (fields: Extract<DeviceBindingCommand, { kind: 'link' }>['fields'] = {}): DeviceBindingCommand => ({ kind: 'link', userId: 'ann', deviceId: 'phone-1', fields });
const unlink = (userId = 'ann'): DeviceBindingCommand => ({ kind: 'unlink', userId });

describe('device binding', () => {
  it('given two users or two devices, then their binding ids differ; the same pair always gives the same id', () => {
    expect(deviceBindingId('ann', 'phone-1')).toBe(id);
    expect(new Set([id, deviceBindingId('bob', 'phone-1'), deviceBindingId('ann', 'phone-2')]).size).toBe(3);
  });

  it('given no binding, when linking with only a device id, then it is linked with the defaults', () =>
    given()
      .when(link())
      .then({ type: 'DeviceLinked', data: { binding_id: id, user_id: 'ann', device_id: 'phone-1', device_name: null, platform: 'web', form_factor: 'phone', capabilities: {}, at } }));

  it('given a binding, when linked again with a new name, then it is relinked keeping the fields not given', () =>
    given(...history(link({ platform: 'ios' })))
      .when(link({ device_name: 'Pocket' }))
      .then({ type: 'DeviceRelinked', data: { binding_id: id, user_id: 'ann', device_name: 'Pocket', platform: 'ios', form_factor: 'phone', capabilities: {}, at } }));

  it('given an active binding, when linked again with the same fields, then nothing is recorded', () => given(...history(link({ platform: 'ios' }))).when(link({ platform: 'ios' })).thenNothing());

  it('given an unlinked binding, when linked again, then it is reactivated', () => {
    const relinked = given(...history(link(), unlink())).when(link());
    expect(relinked.events().map((e) => e.type)).toEqual(['DeviceRelinked']);
    expect(relinked.state()).toMatchObject({ status: 'bound', binding: { is_active: true, linked_at: at } });
  });

  it('given an active binding, when its user unlinks it, then it is inactive', () => {
    const unlinked = given(...history(link())).when(unlink());
    expect(unlinked.events()).toEqual([{ type: 'DeviceUnlinked', data: { binding_id: id, user_id: 'ann', at } }]);
    expect(unlinked.state()).toMatchObject({ binding: { is_active: false } });
  });

  it.each([
    ['no binding', [] as DeviceBindingCommand[], 'ann'],
    ["another user's binding", [link()], 'bob'],
    ['an unlinked binding', [link(), unlink()], 'ann'],
  ])('given %s, when unlinking, then 404 Device not found', (_, past, userId) => given(...history(...past)).when(unlink(userId)).thenRefused('not_found', DEVICE_NOT_FOUND));
});
