/**
 * Who may act and how often (docs/security.md):
 *
 * - ANONYMOUS_CHAT (default `local`): `local` lets a caller without a
 *   credential use the agent pipeline routes (/chat, /visual_agent,
 *   /add_history, /time_agent, /goals) when it connects from a loopback
 *   address, acting as a guest of that address, never as a registered user;
 *   `off` requires a JWT or API key on them from everyone.
 * - RATE_LIMIT_<BUCKET> = `<n>/<period>` with period `s`, `m`, `h` (e.g.
 *   `30/1m`): the token buckets of the routes named in RATE_BUCKETS.
 * - SOCIAL_RATE_LIMIT_DISABLED=1|true|yes: the social platform's buckets
 *   (global, auth, register, recovery, post, comment, vote, search, backup) become
 *   100000 a minute, as in the original, for load tests. The pipeline's
 *   buckets stay. CHAT_RATE_LIMIT_PER_MINUTE (chat.config.ts) is the /chat bucket.
 */
import { ConfigError } from './config-error';

export type AnonymousPipelineMode = 'local' | 'off';

/** The buckets of this service; the route each guards is in docs/security.md. */
export const RATE_BUCKETS = [
  'global',
  'auth',
  'register',
  'recovery',
  'post',
  'comment',
  'vote',
  'search',
  'backup',
  'pipeline',
  'pipeline_ip',
  'peers',
] as const;
export type RateBucketName = (typeof RATE_BUCKETS)[number];

export interface BucketConfig {
  limit: number;
  periodSec: number;
}

export interface SecurityConfig {
  anonymousPipeline: AnonymousPipelineMode;
  rateLimits: Record<RateBucketName, BucketConfig>;
}

/**
 * Defaults: high enough for a person, a busy test suite or an office behind
 * one NAT; low enough that guessing and account spam get nowhere beside the
 * per-username lockout (docs/security.md says what each stops).
 */
export const DEFAULT_BUCKETS: Record<RateBucketName, BucketConfig> = {
  /** taken first by every social route limited by a content bucket (post, comment, vote, search) or by global alone, per user (per IP for anonymous callers); social-routes §0.3 */
  global: { limit: 100, periodSec: 60 },
  /** login and guest-recover, per client IP */
  auth: { limit: 300, periodSec: 60 },
  /** register and guest-register, per client IP: each costs an argon2id hash */
  register: { limit: 300, periodSec: 60 },
  /** guest-recover from all callers together: the recovery-code space is one space */
  recovery: { limit: 120, periodSec: 60 },
  /** POST /posts, POST /feeds/import, per user: social-routes §0.3 */
  post: { limit: 1, periodSec: 30 * 60 },
  /** posting a comment or a reply, per user */
  comment: { limit: 50, periodSec: 3600 },
  /** up/down votes on posts and comments, per user */
  vote: { limit: 60, periodSec: 60 },
  /** /search, per user (per IP for anonymous callers) */
  search: { limit: 30, periodSec: 60 },
  /** POST /sync/backup and /sync/restore, per user: each costs a scrypt derivation (32 MiB, ~0.1 s), and a restore is a passphrase guess */
  backup: { limit: 10, periodSec: 60 },
  /** /visual_agent, /add_history, /time_agent, /goals, /coding/execute, /api/tools/tts/speak, per user (per IP for anonymous callers) */
  pipeline: { limit: 60, periodSec: 60 },
  /** every pipeline route including /chat (and the engine's /coding/execute and speech), per client IP whoever signs in: fresh guest accounts do not add up */
  pipeline_ip: { limit: 3000, periodSec: 60 },
  /** POST /peers/announce and /peers/exchange, per client IP (social-routes §19: 10 a minute); SOCIAL_RATE_LIMIT_DISABLED leaves it */
  peers: { limit: 10, periodSec: 60 },
};

/** What SOCIAL_RATE_LIMIT_DISABLED lifts: every bucket of the social platform, none of the pipeline's. */
const SOCIAL_BUCKETS: readonly RateBucketName[] = ['global', 'auth', 'register', 'recovery', 'post', 'comment', 'vote', 'search', 'backup'];
const DISABLED: BucketConfig = { limit: 100_000, periodSec: 60 };

type Env = Record<string, string | undefined>;

const PERIOD_SEC = { s: 1, m: 60, h: 3600 } as const;

function bucket(env: Env, name: RateBucketName): BucketConfig {
  const variable = `RATE_LIMIT_${name.toUpperCase()}`;
  const value = env[variable]?.trim();
  if (!value) return DEFAULT_BUCKETS[name];
  const match = /^(\d{1,7})\/(\d{1,5})?([smh])$/.exec(value);
  if (!match || +match[1] < 1 || match[2] === '0') {
    throw new ConfigError(variable, `expected <requests>/<period> such as 30/1m or 5/10s, got '${value}'`);
  }
  return { limit: Number(match[1]), periodSec: Number(match[2] ?? 1) * PERIOD_SEC[match[3] as keyof typeof PERIOD_SEC] };
}

function truthy(env: Env, name: string): boolean {
  return ['1', 'true', 'yes', 'on'].includes((env[name] ?? '').trim().toLowerCase());
}

export function loadSecurityConfig(env: Env): SecurityConfig {
  const anonymous = (env.ANONYMOUS_CHAT ?? '').trim() || 'local';
  if (anonymous !== 'local' && anonymous !== 'off') throw new ConfigError('ANONYMOUS_CHAT', `expected local or off, got '${anonymous}'`);
  const socialOff = truthy(env, 'SOCIAL_RATE_LIMIT_DISABLED');
  const rateLimits = Object.fromEntries(
    RATE_BUCKETS.map((name) => [name, socialOff && SOCIAL_BUCKETS.includes(name) ? DISABLED : bucket(env, name)]),
  ) as Record<RateBucketName, BucketConfig>;
  return { anonymousPipeline: anonymous, rateLimits };
}
