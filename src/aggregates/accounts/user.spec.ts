import { DomainError } from '../shared/domain-error';
import { INVALID_CREDENTIALS, INVALID_RECOVERY_CODE, userDecider, type UserCommand } from './user';
import type { UserEvent } from './user.events';

const now = new Date('2026-11-22T10:00:00.000Z');
const given = (...events: UserEvent[]) => events.reduce(userDecider.evolve, userDecider.initialState);
const when = (command: UserCommand, ...past: UserEvent[]) => userDecider.decide(command, given(...past), now);

const registered: UserEvent = {
  type: 'UserRegistered',
  data: {
    user_id: 'u1',
    username: 'alice',
    email: 'alice@example.com',
    display_name: 'Alice',
    role: 'user',
    user_type: 'human',
    password_hash: 'hash',
    registered_at: '2026-11-22T09:00:00.000Z',
  },
};
const guest: UserEvent = {
  type: 'GuestRegistered',
  data: {
    user_id: 'g1',
    username: 'guest_bob_a1b2c3',
    display_name: 'bob',
    recovery_code_hash: 'code1',
    device_id: null,
    registered_at: '2026-11-22T09:00:00.000Z',
  },
};

describe('user', () => {
  it('given nothing, when registering, then UserRegistered is recorded with the time', () => {
    const { registered_at, ...registration } = registered.data as typeof registered.data & { registered_at: string };
    expect(when({ kind: 'register', registration })).toEqual([
      { type: 'UserRegistered', data: { ...registration, registered_at: now.toISOString() } },
    ]);
    expect(registered_at).toBeDefined();
  });

  it('given a registered user, when registering again, then it is a conflict', () => {
    const { registered_at: _, ...registration } = registered.data as typeof registered.data & { registered_at: string };
    expect(() => when({ kind: 'register', registration }, registered)).toThrow(DomainError);
  });

  it('given a registered user, when a verified login is recorded, then UserLoggedIn carries the token id', () => {
    expect(when({ kind: 'recordLogin', tokenId: 't1', method: 'password', passwordVerified: true }, registered)).toEqual([
      { type: 'UserLoggedIn', data: { user_id: 'u1', token_id: 't1', method: 'password', at: now.toISOString() } },
    ]);
  });

  it('given a registered user, when a wrong password is recorded, then UserLoginFailed is recorded for the audit', () => {
    expect(when({ kind: 'recordLogin', tokenId: 't1', method: 'password', passwordVerified: false }, registered)).toEqual([
      { type: 'UserLoginFailed', data: { user_id: 'u1', at: now.toISOString() } },
    ]);
  });

  it('given no user, when a login is recorded, then it is refused with the generic credentials text', () => {
    expect(() => when({ kind: 'recordLogin', tokenId: 't1', method: 'password', passwordVerified: true })).toThrow(
      new DomainError('unauthenticated', INVALID_CREDENTIALS),
    );
  });

  it('given a guest, when recovering with the current code, then the code is rotated', () => {
    const events = when({ kind: 'recoverGuest', presentedCodeHash: 'code1', newCodeHash: 'code2', tokenId: 't', deviceId: 'd' }, guest);
    expect(events).toEqual([
      {
        type: 'GuestRecovered',
        data: { user_id: 'g1', token_id: 't', recovery_code_hash: 'code2', device_id: 'd', at: now.toISOString() },
      },
    ]);
  });

  it('given a recovered guest, when the old code is used again, then it is refused (one-time code)', () => {
    const recovered: UserEvent = {
      type: 'GuestRecovered',
      data: { user_id: 'g1', token_id: 't', recovery_code_hash: 'code2', device_id: null, at: now.toISOString() },
    };
    expect(() =>
      when({ kind: 'recoverGuest', presentedCodeHash: 'code1', newCodeHash: 'code3', tokenId: 't2', deviceId: null }, guest, recovered),
    ).toThrow(new DomainError('unauthenticated', INVALID_RECOVERY_CODE));
  });

  it('given a human user, when recovering as a guest, then it is refused', () => {
    expect(() =>
      when({ kind: 'recoverGuest', presentedCodeHash: 'hash', newCodeHash: 'x', tokenId: 't', deviceId: null }, registered),
    ).toThrow(DomainError);
  });

  it('given a user, when logging out, then the token is revoked until it expires', () => {
    expect(when({ kind: 'revokeToken', tokenId: 't1', expiresAt: '2026-11-23T10:00:00.000Z' }, registered)).toEqual([
      {
        type: 'TokenRevoked',
        data: { user_id: 'u1', token_id: 't1', expires_at: '2026-11-23T10:00:00.000Z', at: now.toISOString() },
      },
    ]);
  });

  it('given a user, when an admin changes the role, then the change records both roles and the admin', () => {
    expect(when({ kind: 'changeRole', role: 'operator', changedBy: 'admin1' }, registered)).toEqual([
      {
        type: 'UserRoleChanged',
        data: { user_id: 'u1', role: 'operator', previous_role: 'user', changed_by: 'admin1', at: now.toISOString() },
      },
    ]);
  });

  it('given a user with a role, when setting the same role, then nothing is recorded', () => {
    expect(when({ kind: 'changeRole', role: 'user', changedBy: 'admin1' }, registered)).toEqual([]);
  });
});
