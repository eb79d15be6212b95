/**
 * Command handlers of the accounts context. Each finds the stream that owns
 * the decision (read models only locate it: a user by name or by
 * recovery-code hash), runs the decider through the CommandExecutor and
 * replies from the outcome: a session is built from the user's state as the
 * command left it, so a write that succeeded is never answered with "retry"
 * because a read model lagged.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { apiKeyDecider, apiKeyStreamId, DAILY_LIMITS } from '../../aggregates/accounts/api-key';
import { claimDecider, claimStreamId, type ClaimScope, legacyEmailClaimStreamId, TAKEN_MESSAGES } from '../../aggregates/accounts/claim';
import {
  INVALID_CREDENTIALS,
  INVALID_RECOVERY_CODE,
  INVALID_REFRESH_TOKEN,
  type RefreshGrant,
  unprivilegedRole,
  userDecider,
  type UserState,
} from '../../aggregates/accounts/user';
import { userStreamId, type UserType } from '../../aggregates/accounts/user.events';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { PEER_NODES, type PeerNodeDoc } from '../../projections/compute/peer-nodes.read-model';
import { verifyNodeSignature } from '../common/node-signing-key';
import { USERNAME_PATTERN } from './accounts.requests';
import type { EventOfType } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import {
  ChangeUserRole,
  type GuestSession,
  IssueApiKey,
  type IssuedApiKey,
  LogIn,
  LogOut,
  RecoverGuest,
  type RecoveredSession,
  RefreshSession,
  type RefreshedSession,
  RegisterGuest,
  RegisterUser,
  type Registration,
  IssueApiToken,
  RevokeApiKey,
  RevokeApiTokens,
  type Session,
  SyncUser,
} from './accounts.commands';
import { newApiToken } from './auth/api-token-authenticator';
import { AccountsQueries, toUserView, type UserRecord, type UserView } from './accounts.queries';
import { newApiKey, sha256 } from './auth/api-key-authenticator';
import { PasswordHasher } from './auth/password-hasher';
import { newRecoveryCode, normaliseRecoveryCode } from './auth/recovery-codes';
import { ServiceSecrets } from './auth/secrets';
import { TokenService } from './auth/token.service';
import { UseReferralCode } from '../referrals/referrals.commands';

/** The user as a command left it, in the shape of a user view's source. */
export function userRecordOf(state: UserState): UserRecord {
  if (state.status === 'none') throw new DomainError('not_found', 'user not found');
  return {
    id: state.userId,
    username: state.username,
    email: state.status === 'registered' ? state.email || null : null,
    display_name: state.displayName,
    role: state.role,
    user_type: state.userType,
    created_at: state.registeredAt,
    last_active_at: state.lastActiveAt,
    bio: state.bio,
    avatar_url: state.avatarUrl,
    is_verified: state.isVerified,
    handle: state.handle,
    is_banned: state.banned,
  };
}

const ABANDONED_AFTER_MS = 60_000;

/**
 * Claims on unique values (username, e-mail, device). A claim whose owner
 * never finished registering (crash between the claim and the user stream) is
 * taken over once it is older than the abandon delay, so a crash can never
 * lock a username forever.
 */
@Injectable()
export class Claims {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly clock: Clock,
  ) {}

  async claim(scope: ClaimScope, value: string, ownerId: string, context: CommandContext): Promise<void> {
    const decider = claimDecider(scope);
    const streamId = claimStreamId(scope, value);
    if (scope === 'email') await this.refuseLegacyEmailClaim(value, ownerId);
    try {
      await this.executor.execute(decider, streamId, { kind: 'claim', value, ownerId }, context, { readYourWrites: false });
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      const { state } = await this.executor.load(decider, streamId);
      if (state.status !== 'claimed' || !(await this.isAbandoned(state.owner, state.claimedAt))) throw error;
      await this.executor.execute(
        decider,
        streamId,
        { kind: 'claim', value, ownerId, takeOverAbandonedFrom: state.owner },
        context,
        { readYourWrites: false },
      );
    }
  }

  async release(scope: ClaimScope, value: string, ownerId: string, context: CommandContext): Promise<void> {
    for (const streamId of scope === 'email' ? [legacyEmailClaimStreamId(value), claimStreamId(scope, value)] : [claimStreamId(scope, value)]) {
      // releasing a claim the owner does not hold appends nothing
      await this.executor.execute(claimDecider(scope), streamId, { kind: 'release', value, ownerId }, context, { readYourWrites: false });
    }
  }

  /** An address claimed in a log written before e-mail claims were digested, by an account that still holds it. */
  private async refuseLegacyEmailClaim(value: string, ownerId: string): Promise<void> {
    const { state } = await this.executor.load(claimDecider('email'), legacyEmailClaimStreamId(value));
    if (state.status === 'claimed' && state.owner !== ownerId && (await this.userExists(state.owner))) throw new DomainError('conflict', TAKEN_MESSAGES.email);
  }

  /** The user who holds the value, if that user's account exists (an e-mail address also under its pre-digest claim stream). */
  async ownerOf(scope: ClaimScope, value: string): Promise<string | null> {
    for (const streamId of scope === 'email' ? [claimStreamId(scope, value), legacyEmailClaimStreamId(value)] : [claimStreamId(scope, value)]) {
      const { state } = await this.executor.load(claimDecider(scope), streamId);
      if (state.status === 'claimed') return (await this.userExists(state.owner)) ? state.owner : null;
    }
    return null;
  }


  private async isAbandoned(owner: string, claimedAt: string): Promise<boolean> {
    const age = this.clock.now().getTime() - new Date(claimedAt).getTime();
    return age > ABANDONED_AFTER_MS && !(await this.userExists(owner));
  }

  private async userExists(userId: string): Promise<boolean> {
    return (await this.executor.load({ initialState: false, evolve: () => true, decide: () => [] }, userStreamId(userId))).state;
  }
}

/** Opens sessions: records a login and issues the matching token, with the user as the command left it. */
@Injectable()
export class Sessions {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
  ) {}

  /** Records a login by device or password (already verified) and returns the session. */
  async open(userId: string, method: 'password' | 'device', context: CommandContext): Promise<Session> {
    const tokenId = this.tokens.newTokenId();
    const refresh = this.refreshGrant();
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(userId),
      { kind: 'recordLogin', tokenId, method, passwordVerified: true, refresh },
      { ...context, actor: userId },
    );
    return this.issue(state, tokenId, refresh);
  }

  /** A refresh token to record with a login or registration (the decider command's `refresh`). */
  refreshGrant(): RefreshGrant {
    return this.tokens.newRefreshGrant(this.clock.now());
  }

  /** The tokens for an already-recorded login or registration (and its refresh grant), from the user's state after it. */
  issue(state: UserState, tokenId: string, refresh: RefreshGrant): Session {
    const user = userRecordOf(state);
    const now = this.clock.now();
    const { token } = this.tokens.issue(user, tokenId, now);
    return { user: toUserView(user, true), token, refresh_token: this.tokens.signRefresh(user.id, refresh, now) };
  }
}

/**
 * Claims the username, then the e-mail (releasing the username if the e-mail
 * is taken), then writes the user stream. Usernames listed in SVC_ADMIN_USERS
 * register as admins. Then the `referral_code`, if any (useReferralCodeOf).
 */
@CommandHandler(RegisterUser)
export class RegisterUserHandler implements ICommandHandler<RegisterUser> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly claims: Claims,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: RegisterUser): Promise<Registration> {
    const { username, email, password, display_name } = payload;
    // Fast refusal without paying for a password hash; the claim below is the real check.
    if (await this.queries.userByUsername(username)) throw new DomainError('conflict', TAKEN_MESSAGES.username);
    const passwordHash = await this.hasher.hash(password);
    const userId = randomUUID();
    const ctx = { ...context, actor: userId };
    await this.claims.claim('username', username, userId, ctx);
    try {
      await this.claims.claim('email', email, userId, ctx);
    } catch (error) {
      await this.claims.release('username', username, userId, ctx);
      throw error;
    }
    const refresh = this.sessions.refreshGrant();
    const apiToken = newApiToken();
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(userId),
      {
        kind: 'register',
        refresh,
        apiToken: { tokenId: apiToken.tokenId, secretSha256: apiToken.secretSha256 },
        registration: {
          user_id: userId,
          username,
          email: email.trim().toLowerCase(),
          display_name: display_name?.trim() || username,
          role: this.config.adminUsernames.includes(username.toLowerCase()) ? 'admin' : 'user',
          user_type: 'human',
          password_hash: passwordHash,
        },
      },
      ctx,
    );
    await useReferralCodeOf(this.commands, userId, payload.referral_code, ctx);
    return { ...this.sessions.issue(state, this.tokens.newTokenId(), refresh), api_token: apiToken.token };
  }
}

const registrationLogger = new Logger('Registration');

/**
 * The referral code given at registration (social-routes §14), used as POST
 * /referral/use would; a code that refers nobody (not a string, unknown,
 * used up...) or a failure never fails the registration.
 */
async function useReferralCodeOf(commands: CommandBus, userId: string, code: unknown, context: CommandContext): Promise<void> {
  if (typeof code !== 'string') return;
  try {
    await commands.execute(new UseReferralCode({ referredId: userId, code }, context));
  } catch (error) {
    registrationLogger.warn(`registered ${userId} without its referral: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Verifies the password against the user stream (the source of truth, never a
 * read model), records the attempt (UserLoggedIn or UserLoginFailed, for the
 * audit trail) and answers one 401 text for unknown users, wrong passwords
 * and locked usernames (the user aggregate's lockout).
 */
@CommandHandler(LogIn)
export class LogInHandler implements ICommandHandler<LogIn> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ payload: { username, password }, context }: LogIn): Promise<Session> {
    const doc = await this.queries.userByUsername(username);
    const { state } = doc ? await this.executor.load(userDecider, userStreamId(doc.id)) : { state: userDecider.initialState };
    // an erased or synced account has no password ('')
    const passwordHash = state.status === 'registered' ? state.passwordHash || null : null;
    const verified = await this.hasher.verify(passwordHash, password);
    if (!doc || !passwordHash) throw new DomainError('unauthenticated', INVALID_CREDENTIALS);
    const tokenId = this.tokens.newTokenId();
    const refresh = this.sessions.refreshGrant();
    const outcome = await this.executor.execute(
      userDecider,
      userStreamId(doc.id),
      { kind: 'recordLogin', tokenId, method: 'password', passwordVerified: verified, refresh },
      { ...context, actor: doc.id },
    );
    // a wrong password, or a locked username (the same answer, after the same hash work)
    if (outcome.events.some((event) => event.type === 'UserLoginFailed')) throw new DomainError('unauthenticated', INVALID_CREDENTIALS);
    return this.sessions.issue(outcome.state, tokenId, refresh);
  }
}

/** Revokes the presented JWT until it expires; the next request with it gets 401. */
@CommandHandler(LogOut)
export class LogOutHandler implements ICommandHandler<LogOut> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, tokenId, expiresAt }, context }: LogOut): Promise<void> {
    await this.executor.execute(userDecider, userStreamId(userId), { kind: 'revokeToken', tokenId, expiresAt }, context);
  }
}

const GUEST_USERNAME_ATTEMPTS = 5;

/** `guest_` + the name (lower-cased, spaces to `_`, other characters dropped) + `_` + 6 hex characters. */
function guestUsername(guestName: string): string {
  const base = guestName.trim().toLowerCase().replace(/\s+/g, '_').replace(/[^a-z0-9_.-]/g, '').slice(0, 36) || 'guest';
  return `guest_${base}_${randomBytes(3).toString('hex')}`;
}

/**
 * A guest account without e-mail or password. A device id already on file
 * returns that guest with a fresh token (200, `existing: true`); the device
 * claim makes two concurrent first visits of one device end in one account.
 */
@CommandHandler(RegisterGuest)
export class RegisterGuestHandler implements ICommandHandler<RegisterGuest> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
    private readonly secrets: ServiceSecrets,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: RegisterGuest): Promise<GuestSession> {
    const guestName = payload.guest_name;
    const deviceId = payload.device_id ?? null;
    if (deviceId) {
      const owner = await this.claims.ownerOf('device', deviceId);
      if (owner) return this.existing(owner, context);
    }
    const userId = randomUUID();
    const ctx = { ...context, actor: userId };
    const username = await this.claimUsername(guestName, userId, ctx);
    if (deviceId) {
      try {
        await this.claims.claim('device', deviceId, userId, ctx);
      } catch (error) {
        await this.claims.release('username', username, userId, ctx);
        const owner = error instanceof DomainError ? await this.claims.ownerOf('device', deviceId) : null;
        if (owner) return this.existing(owner, context);
        throw error;
      }
    }
    const recoveryCode = newRecoveryCode();
    const refresh = this.sessions.refreshGrant();
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(userId),
      {
        kind: 'registerGuest',
        refresh,
        registration: {
          user_id: userId,
          username,
          display_name: guestName.trim(),
          recovery_code_hash: this.secrets.lookupHash('recovery', normaliseRecoveryCode(recoveryCode)),
          device_id: deviceId,
        },
      },
      ctx,
    );
    await useReferralCodeOf(this.commands, userId, payload.referral_code, ctx);
    return { ...this.sessions.issue(state, this.tokens.newTokenId(), refresh), recovery_code: recoveryCode, existing: false };
  }

  private async existing(userId: string, context: CommandContext): Promise<GuestSession> {
    const session = await this.sessions.open(userId, 'device', context);
    return { ...session, recovery_code: null, existing: true };
  }

  private async claimUsername(guestName: string, userId: string, context: CommandContext): Promise<string> {
    for (let attempt = 1; ; attempt++) {
      const username = guestUsername(guestName);
      try {
        await this.claims.claim('username', username, userId, context);
        return username;
      } catch (error) {
        if (!(error instanceof DomainError) || attempt >= GUEST_USERNAME_ATTEMPTS) throw error;
      }
    }
  }
}

/**
 * Signs a guest back in with its recovery code. The code is one-time: the
 * user stream checks it and rotates it in one event, so two concurrent uses
 * of one code end in one success; the new code is returned.
 */
@CommandHandler(RecoverGuest)
export class RecoverGuestHandler implements ICommandHandler<RecoverGuest> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: AccountsQueries,
    private readonly secrets: ServiceSecrets,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ payload, context }: RecoverGuest): Promise<RecoveredSession> {
    const presented = this.secrets.lookupHash('recovery', normaliseRecoveryCode(payload.recovery_code));
    const doc = await this.queries.userByRecoveryHash(presented);
    if (!doc) throw new DomainError('unauthenticated', INVALID_RECOVERY_CODE);
    const next = newRecoveryCode();
    const tokenId = this.tokens.newTokenId();
    const refresh = this.sessions.refreshGrant();
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(doc.id),
      {
        kind: 'recoverGuest',
        presentedCodeHash: presented,
        newCodeHash: this.secrets.lookupHash('recovery', normaliseRecoveryCode(next)),
        tokenId,
        deviceId: payload.device_id ?? null,
        refresh,
      },
      { ...context, actor: doc.id },
    );
    return { ...this.sessions.issue(state, tokenId, refresh), recovery_code: next };
  }
}

/**
 * Exchanges a refresh token: the token's signature and type are checked, then
 * the user stream, which holds the live refresh tokens, rotates it (the
 * presented one dies); two concurrent uses of one token serialise on the
 * stream and exactly one succeeds. Any failure is 401.
 */
@CommandHandler(RefreshSession)
export class RefreshSessionHandler implements ICommandHandler<RefreshSession> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly tokens: TokenService,
    private readonly sessions: Sessions,
  ) {}

  async execute({ payload, context }: RefreshSession): Promise<RefreshedSession> {
    const claims = this.tokens.readRefresh(payload.refreshToken);
    if (!claims) throw new DomainError('unauthenticated', INVALID_REFRESH_TOKEN);
    const accessTokenId = this.tokens.newTokenId();
    const refresh = this.sessions.refreshGrant();
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(claims.sub),
      { kind: 'refreshSession', presentedTokenId: claims.jti, accessTokenId, refresh },
      { ...context, actor: claims.sub },
    );
    const session = this.sessions.issue(state, accessTokenId, refresh);
    return { access_token: session.token, refresh_token: session.refresh_token, token_type: 'bearer', expires_in: this.tokens.accessTtlSeconds };
  }
}

@CommandHandler(IssueApiToken)
export class IssueApiTokenHandler implements ICommandHandler<IssueApiToken> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId }, context }: IssueApiToken): Promise<{ api_token: string }> {
    const { tokenId, secretSha256, token } = newApiToken();
    await this.executor.execute(userDecider, userStreamId(userId), { kind: 'issueApiToken', tokenId, secretSha256 }, context);
    return { api_token: token };
  }
}

@CommandHandler(RevokeApiTokens)
export class RevokeApiTokensHandler implements ICommandHandler<RevokeApiTokens> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId }, context }: RevokeApiTokens): Promise<{ revoked: number }> {
    const { events } = await this.executor.execute(userDecider, userStreamId(userId), { kind: 'revokeApiTokens' }, context);
    return { revoked: events.reduce((n, event) => n + (event.type === 'ApiTokensRevoked' ? event.data.token_ids.length : 0), 0) };
  }
}

export const UNVERIFIED_NODE = 'unverified node identity';
const USER_TYPES: readonly UserType[] = ['human', 'agent', 'guest'];

/** The profile fields a synced user_data must carry, or 400. */
function syncedProfile(data: Record<string, unknown>): { userId: string; username: string; displayName: string; userType: UserType; role: unknown } {
  const { id, username, display_name, user_type, role } = data;
  if (typeof id !== 'string' || !/^[A-Za-z0-9_.:-]{1,128}$/.test(id)) throw new DomainError('invalid', 'user_data.id must be a user id');
  if (typeof username !== 'string' || !USERNAME_PATTERN.test(username)) throw new DomainError('invalid', 'user_data.username must be 2-50 characters of letters, digits, _ . @ -');
  if (display_name !== undefined && (typeof display_name !== 'string' || display_name.length > 100)) {
    throw new DomainError('invalid', 'user_data.display_name must be at most 100 characters');
  }
  const userType = user_type === undefined ? 'human' : user_type;
  if (!USER_TYPES.includes(userType as UserType)) throw new DomainError('invalid', 'user_data.user_type must be human, agent or guest');
  return { userId: id, username, displayName: (display_name as string | undefined)?.trim() || username, userType: userType as UserType, role };
}

/**
 * A peer node's user profile (social-routes §1 [newer]): the signature over
 * user_data must verify against the key this node pinned for the peer from
 * its gossip (a key the request names itself counts for nothing), else 401
 * `unverified node identity`; the account it makes never carries a privileged
 * role. The username is claimed like a registration's.
 */
@CommandHandler(SyncUser)
export class SyncUserHandler implements ICommandHandler<SyncUser> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
    @Inject(READ_STORE) private readonly store: ReadStore,
  ) {}

  async execute({ payload, context }: SyncUser): Promise<{ synced: true }> {
    const peer = await this.store.collection<PeerNodeDoc>(PEER_NODES).findOne({ _id: payload.nodeId });
    const pinned = peer?.public_key;
    if (!pinned || (payload.nodePublicKey !== undefined && payload.nodePublicKey !== pinned) || !verifyNodeSignature(pinned, payload.userData, payload.signature)) {
      throw new DomainError('unauthenticated', UNVERIFIED_NODE);
    }
    const profile = syncedProfile(payload.userData);
    const ctx = { ...context, actor: `node:${payload.nodeId}` };
    const { state } = await this.executor.load(userDecider, userStreamId(profile.userId));
    if (state.status === 'none') await this.claims.claim('username', profile.username, profile.userId, ctx);
    await this.executor.execute(
      userDecider,
      userStreamId(profile.userId),
      { kind: 'syncProfile', ...profile, role: unprivilegedRole(profile.role, profile.userType), originNode: payload.nodeId },
      ctx,
    );
    return { synced: true };
  }
}

/** An admin grants or withdraws a role; the change is recorded with the admin's id. An unknown user is 404. */
@CommandHandler(ChangeUserRole)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRole> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, role, changedBy }, context }: ChangeUserRole): Promise<UserView> {
    const { state } = await this.executor.execute(userDecider, userStreamId(userId), { kind: 'changeRole', role, changedBy }, context);
    return toUserView(userRecordOf(state), false);
  }
}

/** Issues a key: the full key is in this reply only; the store keeps its hash. */
@CommandHandler(IssueApiKey)
export class IssueApiKeyHandler implements ICommandHandler<IssueApiKey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, name, tier, allowedOrigins }, context }: IssueApiKey): Promise<IssuedApiKey> {
    const { keyId, secret, key } = newApiKey();
    const { events } = await this.executor.execute(
      apiKeyDecider,
      apiKeyStreamId(keyId),
      { kind: 'issue', keyId, userId, name: name.trim(), tier, secretSha256: sha256(secret), allowedOrigins: allowedOrigins.map((o) => o.toLowerCase()) },
      context,
    );
    const [issued] = events as EventOfType<(typeof events)[number], 'ApiKeyIssued'>[];
    return {
      id: keyId,
      name: issued.data.name,
      tier,
      key,
      api_key: key,
      daily_limit: DAILY_LIMITS[tier],
      created_at: issued.data.issued_at,
      allowed_origins: issued.data.allowed_origins ?? [],
    };
  }
}

@CommandHandler(RevokeApiKey)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { keyId, requestedBy }, context }: RevokeApiKey): Promise<void> {
    await this.executor.execute(apiKeyDecider, apiKeyStreamId(keyId), { kind: 'revoke', requestedBy }, context);
  }
}
