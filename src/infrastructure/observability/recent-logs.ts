/**
 * The process's most recent log lines, kept in memory for GET
 * /api/social/admin/logs (social-routes §12): a ring of the last
 * RECENT_LOG_CAPACITY JSON lines the root logger wrote (at its level), kept
 * as written and parsed only when read, so logging pays one array store.
 */
import { Writable } from 'node:stream';

export const RECENT_LOG_CAPACITY = 1000;

export interface LogEntry {
  time: string;
  level: string;
  message: string;
  context: string | null;
  [field: string]: unknown;
}

export class RecentLogs extends Writable {
  private readonly lines: string[] = [];
  private next = 0;

  constructor(private readonly capacity = RECENT_LOG_CAPACITY) {
    super({ decodeStrings: false });
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.record(chunk.toString());
    done();
  }

  /** Keeps a written line (one JSON object), dropping the oldest beyond the capacity. */
  record(line: string): void {
    if (this.lines.length < this.capacity) this.lines.push(line);
    else this.lines[this.next] = line;
    this.next = (this.next + 1) % this.capacity;
  }

  /** Newest first, at most `limit`, only `level` when given (pino's names: trace … fatal). */
  entries(limit: number, level: string | null): LogEntry[] {
    const ordered = this.lines.length < this.capacity ? [...this.lines] : [...this.lines.slice(this.next), ...this.lines.slice(0, this.next)];
    const out: LogEntry[] = [];
    for (let i = ordered.length - 1; i >= 0 && out.length < limit; i--) {
      const entry = parse(ordered[i]);
      if (entry && (!level || entry.level === level)) out.push(entry);
    }
    return out;
  }
}

function parse(line: string): LogEntry | null {
  try {
    const { time, level, msg, context, ...rest } = JSON.parse(line) as Record<string, unknown>;
    return { ...rest, time: String(time ?? ''), level: String(level ?? ''), message: String(msg ?? ''), context: typeof context === 'string' ? context : null };
  } catch {
    return null;
  }
}

/** The ring of this process (every root logger writes into it). */
export const RECENT_LOGS = new RecentLogs();
