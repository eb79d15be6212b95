import { deciderKit } from '../../../test/support/decider-kit';
import { INVALID_CREDENTIALS, INVALID_RECOVERY_CODE, userDecider, type UserCommand } from './user';
import type { UserEvent, UserRegisteredData } from './user.events';

const now = new Date('2026-11-22T10:00:00.000Z');
const { given } = deciderKit(userDecider, now);

const registration: Omit<UserRegisteredData, 'registered_at'> = {
  user_id: 'u1',
  username: 'alice',
  email: 'alice@example.com',
  display_name: 'Alice',
  role: 'user',
  user_type: 'human',
  password_hash: 'hash',
};
const registered: UserEvent = { type: 'UserRegistered', data: { ...registration, registered_at: '2026-11-22T09:00:00.000Z' } };
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
const login = (passwordVerified = true): UserCommand => ({ kind: 'recordLogin', tokenId: 't1', method: 'password', passwordVerified });
const recover = (presentedCodeHash: string, newCodeHash: string, deviceId: string | null = null): UserCommand => ({
  kind: 'recoverGuest',
  presentedCodeHash,
  newCodeHash,
  tokenId: 't',
  deviceId,
});

describe('user', () => {
  describe('registering', () => {
    it('given nothing, when registering, then UserRegistered is recorded with the time', () =>
      given()
        .when({ kind: 'register', registration })
        .then({ type: 'UserRegistered', data: { ...registration, registered_at: now.toISOString() } }));

    it('given a registered user, when registering again, then it is a conflict', () =>
      given(registered).when({ kind: 'register', registration }).thenRefused('conflict', 'User already registered'));

    it('given a registration, then the state holds what a session shows (no activity yet)', () => {
      expect(given(registered).state()).toMatchObject({
        status: 'registered',
        userId: 'u1',
        username: 'alice',
        email: 'alice@example.com',
        displayName: 'Alice',
        role: 'user',
        userType: 'human',
        registeredAt: '2026-11-22T09:00:00.000Z',
        lastActiveAt: null,
      });
    });

    it('given a guest registration, then the state shows a guest without e-mail or password, active since registering', () => {
      expect(given(guest).state()).toEqual({
        status: 'guest',
        userId: 'g1',
        username: 'guest_bob_a1b2c3',
        displayName: 'bob',
        role: 'guest',
        userType: 'guest',
        recoveryCodeHash: 'code1',
        registeredAt: '2026-11-22T09:00:00.000Z',
        lastActiveAt: '2026-11-22T09:00:00.000Z',
        bio: '',
        avatarUrl: null,
        isVerified: false,
        handle: null,
        banned: false,
        anonymized: false,
        refreshTokens: {},
        apiTokenIds: [],
        syncedFrom: null,
      });
    });
  });

  describe('refresh tokens', () => {
    const grant = { tokenId: 'r1', expiresAt: '2026-11-29T10:00:00.000Z' };
    const issued: UserEvent = { type: 'RefreshTokenIssued', data: { user_id: 'u1', token_id: 'r1', expires_at: grant.expiresAt, at: '2026-11-22T09:30:00.000Z' } };
    const refresh = (presentedTokenId: string): UserCommand => ({
      kind: 'refreshSession',
      presentedTokenId,
      accessTokenId: 'a2',
      refresh: { tokenId: 'r2', expiresAt: '2026-11-29T10:00:00.000Z' },
    });

    it('given a login with a refresh grant, then the login and the refresh token are recorded together', () =>
      given(registered)
        .when({ kind: 'recordLogin', tokenId: 't1', method: 'password', passwordVerified: true, refresh: grant })
        .then(
          { type: 'UserLoggedIn', data: { user_id: 'u1', token_id: 't1', method: 'password', at: now.toISOString() } },
          { type: 'RefreshTokenIssued', data: { user_id: 'u1', token_id: 'r1', expires_at: grant.expiresAt, at: now.toISOString() } },
        ));

    it('given a live refresh token, when exchanged, then it is rotated for the new one', () =>
      given(registered, issued)
        .when(refresh('r1'))
        .then({
          type: 'RefreshTokenRotated',
          data: { user_id: 'u1', previous_token_id: 'r1', token_id: 'r2', access_token_id: 'a2', expires_at: '2026-11-29T10:00:00.000Z', at: now.toISOString() },
        }));

    it('given a rotated refresh token, when exchanged again, then it is refused', () => {
      const rotated: UserEvent = {
        type: 'RefreshTokenRotated',
        data: { user_id: 'u1', previous_token_id: 'r1', token_id: 'r2', access_token_id: 'a2', expires_at: '2026-11-29T10:00:00.000Z', at: now.toISOString() },
      };
      given(registered, issued, rotated).when(refresh('r1')).thenRefused('unauthenticated', 'Invalid or expired refresh token');
    });

    it('given an expired refresh token, when exchanged, then it is refused', () =>
      given(registered, { ...issued, data: { ...issued.data, expires_at: '2026-11-22T09:59:59.000Z' } } as UserEvent)
        .when(refresh('r1'))
        .thenRefused('unauthenticated', 'Invalid or expired refresh token'));

    it('given a banned user, when a refresh token is exchanged, then it is refused as banned', () =>
      given(registered, issued, { type: 'UserBanned', data: { user_id: 'u1', banned_by: 'admin', at: now.toISOString() } })
        .when(refresh('r1'))
        .thenRefused('unauthenticated', 'Account banned'));
  });

  describe('bans and erasure', () => {
    const banned: UserEvent = { type: 'UserBanned', data: { user_id: 'u1', banned_by: 'admin', at: now.toISOString() } };

    it('given a banned user, when logging in with the right password, then it is refused like a wrong one', () =>
      given(registered, banned).when(login()).thenRefused('unauthenticated', INVALID_CREDENTIALS));

    it('given a banned user, when banned again, then nothing is recorded; unbanning records once', () => {
      given(registered, banned).when({ kind: 'ban', by: 'admin' }).then();
      given(registered, banned)
        .when({ kind: 'unban', by: 'admin' })
        .then({ type: 'UserUnbanned', data: { user_id: 'u1', unbanned_by: 'admin', at: now.toISOString() } });
    });

    it('given an anonymised user, then the state holds no personal data and no live tokens', () => {
      const state = given(registered, { type: 'UserAnonymized', data: { user_id: 'u1', username: 'deleted_abc', display_name: 'Deleted User', requested_by: 'u1', at: now.toISOString() } }).state();
      expect(state).toMatchObject({ username: 'deleted_abc', displayName: 'Deleted User', email: '', passwordHash: '', bio: '', handle: null, anonymized: true, refreshTokens: {}, apiTokenIds: [] });
    });
  });

  describe('synced profiles', () => {
    const sync = (role: 'admin' | 'user' = 'user', userId = 'r1'): UserCommand => ({
      kind: 'syncProfile',
      userId,
      username: 'remote',
      displayName: 'Remote',
      userType: 'human',
      role,
      originNode: 'peer-1',
    });

    it('given nothing, when a peer syncs a profile naming admin, then the account is recorded as a plain user', () =>
      given()
        .when(sync('admin'))
        .then({
          type: 'UserSynced',
          data: { user_id: 'r1', username: 'remote', display_name: 'Remote', user_type: 'human', role: 'user', origin_node: 'peer-1', at: now.toISOString() },
        }));

    it('given an account made here, when a peer syncs it, then it is refused', () =>
      given(registered).when(sync('user', 'u1')).thenRefused('conflict', 'User exists on this node'));
  });

  describe('profile edits', () => {
    it('given a profile, when the same values are sent, then nothing is recorded; changed ones only are', () =>
      given(registered)
        .when({ kind: 'updateProfile', changes: { display_name: 'Alice', bio: 'hello' }, updatedBy: 'u1' })
        .then({ type: 'UserProfileUpdated', data: { user_id: 'u1', changes: { bio: 'hello' }, updated_by: 'u1', at: now.toISOString() } }));
  });

  describe('login lockout', () => {
    const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
    const failed = (at: string, locked = false): UserEvent => ({ type: 'UserLoginFailed', data: { user_id: 'u1', at, locked } });
    const failures = (count: number, firstMinutesAgo: number): UserEvent[] =>
      Array.from({ length: count }, (_, i) => failed(minutesAgo(firstMinutesAgo - i / 10)));

    it('given four recent failures, when the right password is given, then the login succeeds', () =>
      given(registered, ...failures(4, 5)).when(login()).then({
        type: 'UserLoggedIn',
        data: { user_id: 'u1', token_id: 't1', method: 'password', at: now.toISOString() },
      }));

    it('given five failures within the last 15 minutes, when the right password is given, then it is refused as locked', () =>
      given(registered, ...failures(5, 14)).when(login()).then(failed(now.toISOString(), true)));

    it('given five failures whose first was 15 minutes ago, when the right password is given, then the lock has run out', () =>
      given(registered, ...failures(5, 15)).when(login()).then({
        type: 'UserLoggedIn',
        data: { user_id: 'u1', token_id: 't1', method: 'password', at: now.toISOString() },
      }));

    it('given a lock that ran out, when one more wrong password is given, then counting starts again', () => {
      expect(given(registered, ...failures(5, 20)).when(login(false)).state()).toMatchObject({
        failedLogins: { count: 1, since: now.toISOString() },
      });
    });

    it('given failures older than 30 minutes, when a new failure comes, then the old ones are forgotten', () => {
      const state = given(registered, ...failures(4, 31), failed(minutesAgo(0.5))).state();
      expect(state).toMatchObject({ failedLogins: { count: 1, since: minutesAgo(0.5) } });
    });

    it('given four failures, when a login succeeds, then the failures are cleared', () => {
      expect(given(registered, ...failures(4, 5)).when(login()).state()).toMatchObject({ failedLogins: null });
    });
  });

  describe('logging in and out', () => {
    it('given a registered user, when a verified login is recorded, then UserLoggedIn carries the token id', () =>
      given(registered)
        .when(login())
        .then({ type: 'UserLoggedIn', data: { user_id: 'u1', token_id: 't1', method: 'password', at: now.toISOString() } }));

    it('given a registered user, when a verified login is recorded, then the state shows the activity', () => {
      expect(given(registered).when(login()).state()).toMatchObject({ status: 'registered', lastActiveAt: now.toISOString() });
    });

    it('given a registered user, when a wrong password is recorded, then UserLoginFailed is recorded for the audit', () =>
      given(registered).when(login(false)).then({ type: 'UserLoginFailed', data: { user_id: 'u1', at: now.toISOString(), locked: false } }));

    it('given no user, when a login is recorded, then it is refused with the generic credentials text', () =>
      given().when(login()).thenRefused('unauthenticated', INVALID_CREDENTIALS));

    it('given a user, when logging out, then the token is revoked until it expires', () =>
      given(registered)
        .when({ kind: 'revokeToken', tokenId: 't1', expiresAt: '2026-11-23T10:00:00.000Z' })
        .then({
          type: 'TokenRevoked',
          data: { user_id: 'u1', token_id: 't1', expires_at: '2026-11-23T10:00:00.000Z', at: now.toISOString() },
        }));
  });

  describe('guest recovery', () => {
    it('given a guest, when recovering with the current code, then the code is rotated', () =>
      given(guest)
        .when(recover('code1', 'code2', 'd'))
        .then({
          type: 'GuestRecovered',
          data: { user_id: 'g1', token_id: 't', recovery_code_hash: 'code2', device_id: 'd', at: now.toISOString() },
        }));

    it('given a recovered guest, when the old code is used again, then it is refused (one-time code)', () => {
      const recovered: UserEvent = {
        type: 'GuestRecovered',
        data: { user_id: 'g1', token_id: 't', recovery_code_hash: 'code2', device_id: null, at: now.toISOString() },
      };
      given(guest, recovered).when(recover('code1', 'code3')).thenRefused('unauthenticated', INVALID_RECOVERY_CODE);
    });

    it('given a human user, when recovering as a guest, then it is refused', () =>
      given(registered).when(recover('hash', 'x')).thenRefused('unauthenticated', INVALID_RECOVERY_CODE));
  });

  describe('roles', () => {
    it('given a user, when an admin changes the role, then the change records both roles and the admin', () =>
      given(registered)
        .when({ kind: 'changeRole', role: 'operator', changedBy: 'admin1' })
        .then({
          type: 'UserRoleChanged',
          data: { user_id: 'u1', role: 'operator', previous_role: 'user', changed_by: 'admin1', at: now.toISOString() },
        }));

    it('given a user with a role, when setting the same role, then nothing is recorded', () =>
      given(registered).when({ kind: 'changeRole', role: 'user', changedBy: 'admin1' }).thenNothing());

    it('given no user, when changing a role, then 404 user not found', () =>
      given().when({ kind: 'changeRole', role: 'operator', changedBy: 'admin1' }).thenRefused('not_found', 'user not found'));
  });
});
