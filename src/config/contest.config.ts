/**
 * The hive contest's window (SPEC §2.7): `SVC_CONTEST_START` and
 * `SVC_CONTEST_END`, ISO 8601 timestamps without a zone, read as UTC. Each
 * defaults to now and now + 30 days; `configured` says which were set, and
 * a defaulted start is fixed once per node by the contest module (the
 * `ContestWindowFixed` event at first start), so restarts keep the window.
 * An unparsable value, a value with a zone or an end not after the start is
 * a ConfigError naming the variable.
 */
import { ConfigError } from './config-error';

/** The window a contest runs in (what CONTEST_CONFIG provides: fixed for this node). */
export interface ContestWindow {
  startsAt: Date;
  endsAt: Date;
}

export interface ContestConfig extends ContestWindow {
  /** which ends of the window the environment set (the others are defaults) */
  configured: { start: boolean; end: boolean };
}

export const CONTEST_DEFAULT_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
const LOCAL_ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/;

type Env = Record<string, string | undefined>;

function parseUtc(name: string, value: string): Date {
  const m = LOCAL_ISO.exec(value);
  if (!m) throw new ConfigError(name, `expected an ISO 8601 timestamp without zone (YYYY-MM-DDTHH:MM:SS), got '${value}'`);
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '0'] = m;
  const ms = Math.floor(Number(`0.${frac}`) * 1000);
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, ms));
  // Date.UTC rolls over (Feb 30 → Mar 2): refuse dates that do not exist.
  if (
    date.getUTCFullYear() !== +y ||
    date.getUTCMonth() !== +mo - 1 ||
    date.getUTCDate() !== +d ||
    date.getUTCHours() !== +h ||
    date.getUTCMinutes() !== +mi ||
    date.getUTCSeconds() !== +s
  ) {
    throw new ConfigError(name, `not a valid date/time: '${value}'`);
  }
  return date;
}

export function loadContestConfig(env: Env, now: Date): ContestConfig {
  const start = env.SVC_CONTEST_START?.trim();
  const end = env.SVC_CONTEST_END?.trim();
  const startsAt = start ? parseUtc('SVC_CONTEST_START', start) : new Date(now.getTime());
  const endsAt = end ? parseUtc('SVC_CONTEST_END', end) : new Date(startsAt.getTime() + CONTEST_DEFAULT_DAYS * DAY_MS);
  if (endsAt.getTime() <= startsAt.getTime()) {
    throw new ConfigError(end ? 'SVC_CONTEST_END' : 'SVC_CONTEST_START', 'the contest must end after it starts');
  }
  return { startsAt, endsAt, configured: { start: Boolean(start), end: Boolean(end) } };
}

/** Nest injection token of this node's ContestWindow (ContestModule fixes it at start: contest-window.provider.ts). */
export const CONTEST_CONFIG = Symbol('CONTEST_CONFIG');
