/**
 * The service's one logger: pino, JSON lines on stdout (pino-pretty only for
 * LOG_FORMAT=pretty, loaded then and only then, as a transport). Nest's
 * Logger writes through it too (`PinoLoggerService`), so every line of the
 * process has one shape: `level`, `time`, `msg`, `context` and, on access
 * lines, the request's fields.
 *
 * LOG_LEVEL keeps Nest's names: error, warn, log (pino's info), debug,
 * verbose (pino's trace), silent.
 */
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { LogFormat } from '../../config/observability.config';
import { RECENT_LOGS } from './recent-logs';

export type NestLogLevel = 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'silent';

const PINO_LEVEL: Record<NestLogLevel, pino.LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
  silent: 'silent',
};

export function pinoLevel(level: NestLogLevel): pino.LevelWithSilent {
  return PINO_LEVEL[level];
}

/**
 * What never reaches a log line, should an object carrying it be logged:
 * credentials in headers, passwords and tokens in bodies. The access line
 * itself carries no header and no body.
 */
export const REDACTED_PATHS = [
  'authorization',
  'password',
  'token',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  '*.password',
  '*.token',
  '*.api_key',
  '*.refresh_token',
];

export interface RootLoggerOptions {
  level: NestLogLevel;
  format: LogFormat;
  /** where JSON lines go (tests capture them); stdout by default */
  destination?: DestinationStream;
  /** fields on every line (e.g. node) */
  base?: Record<string, unknown>;
}

export function createRootLogger(options: RootLoggerOptions): Logger {
  const settings: LoggerOptions = {
    level: pinoLevel(options.level),
    base: options.base ?? {},
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  // every line also goes to the in-memory ring that GET /admin/logs reads (recent-logs.ts)
  const withRecent = (destination: DestinationStream) =>
    pino.multistream([
      { stream: destination, level: 'trace' },
      { stream: RECENT_LOGS, level: 'trace' },
    ]);
  if (options.destination) return pino(settings, withRecent(options.destination));
  if (options.format === 'pretty') {
    // a worker thread of pino's own; pino-pretty is required only here (the ring is not fed: a developer's terminal)
    return pino({ ...settings, formatters: {} }, pino.transport({ target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } }));
  }
  return pino(settings, withRecent(pino.destination({ dest: 1, sync: false, minLength: 0 })));
}

/** Nest's LoggerService on pino: `context` becomes a field, an error's stack a field of its own. */
export class PinoLoggerService implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest passes (message, stack?, context?)
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const stack = typeof rest[0] === 'string' ? rest[0] : undefined;
    if (!this.logger.isLevelEnabled('error')) return;
    if (message instanceof Error) this.logger.error({ context, err: message }, message.message);
    else this.logger.error({ context, stack }, text(message));
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) {
      this.logger[level]({ context, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level]({ context }, text(message));
    }
  }
}

function text(message: unknown): string {
  if (message instanceof Error) return message.message;
  return typeof message === 'string' ? message : String(message);
}
