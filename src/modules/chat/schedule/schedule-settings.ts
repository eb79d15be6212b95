/**
 * Settings of the `/time_agent` scheduler. Defaults here; the process
 * configuration may override them with an optional `schedule` section of
 * AppConfig (src/config/config.ts, the one place the environment is read),
 * picked up by `scheduleSettingsOf`.
 */
import { DEFAULT_MAX_ATTEMPTS } from '../../../aggregates/chat/scheduled-prompt';
import type { AppConfig } from '../../../config/config';

export interface ScheduleSettings {
  /** how often the poller looks for due prompts */
  pollIntervalMs: number;
  /** how long a claim holds a prompt; after it, another instance may run it again (same message id) */
  leaseMs: number;
  /** claims a prompt gets at most */
  maxAttempts: number;
  /** a failed attempt n is retried after n × this */
  retryDelayMs: number;
  /** due prompts taken per poll */
  batchSize: number;
  /** due prompts run at once by one instance */
  concurrency: number;
  /** how long shutdown waits for the runs in progress (default: 5 s, at most half of SHUTDOWN_TIMEOUT_MS) */
  stopTimeoutMs: number;
}

export const SCHEDULE_SETTINGS = Symbol('SCHEDULE_SETTINGS');

export const DEFAULT_SCHEDULE_SETTINGS: ScheduleSettings = {
  pollIntervalMs: 500,
  leaseMs: 5 * 60_000,
  maxAttempts: DEFAULT_MAX_ATTEMPTS,
  retryDelayMs: 10_000,
  batchSize: 20,
  concurrency: 4,
  stopTimeoutMs: 5_000,
};

/** The defaults, overridden by `config.schedule` where the configuration has one. */
export function scheduleSettingsOf(config: AppConfig): ScheduleSettings {
  const overrides = (config as AppConfig & { schedule?: Partial<ScheduleSettings> }).schedule ?? {};
  const settings = { ...DEFAULT_SCHEDULE_SETTINGS };
  // the whole shutdown must fit in SHUTDOWN_TIMEOUT_MS: leave the other half to the rest
  settings.stopTimeoutMs = Math.max(1, Math.min(settings.stopTimeoutMs, Math.floor(config.shutdownTimeoutMs / 2)));
  for (const key of Object.keys(settings) as (keyof ScheduleSettings)[]) {
    const value = overrides[key];
    if (typeof value === 'number' && Number.isFinite(value) && value > 0) settings[key] = value;
  }
  return settings;
}
