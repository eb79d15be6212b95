/** Small helpers shared by the bench sections: temp dirs, timing, formatting, output. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Presets, SingleBar } from 'cli-progress';

/** Temp directories created by the bench; all removed by `removeTempDirs()` (also on failure). */
const tempDirs = new Set<string>();

export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `svc-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export function removeTempDirs(): void {
  for (const dir of [...tempDirs]) removeTempDir(dir);
}

/** Seconds elapsed since `start` (a process.hrtime.bigint() value). */
export function secondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export function now(): bigint {
  return process.hrtime.bigint();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** 12345.6 → "12,346" */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function fixed(n: number, digits = 1): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A ratio printed with enough digits to be readable whether it is 0.004 or 40. */
export function ratio(value: number, yardstick: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(yardstick) || yardstick <= 0) return 'n/a';
  const r = value / yardstick;
  if (r >= 10) return `${r.toFixed(1)}x`;
  if (r >= 0.1) return `${r.toFixed(2)}x`;
  return `${r.toFixed(4)}x`;
}

export function log(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function heading(title: string): void {
  log();
  log(`=== ${title} ${'='.repeat(Math.max(0, 74 - title.length))}`);
}

/** Left-aligned first column, right-aligned others; columns sized to their content. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * A progress bar on stderr when it is a terminal (so piped/captured output stays clean);
 * otherwise a no-op.
 */
export interface Progress {
  update(value: number, payload?: Record<string, unknown>): void;
  stop(): void;
}

export function progress(label: string, total: number, unit: string): Progress {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const bar = new SingleBar(
    {
      format: `  ${label.padEnd(28)} [{bar}] {percentage}% | {value}/{total} ${unit}`,
      stream: process.stderr,
      clearOnComplete: true,
      hideCursor: true,
    },
    Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0);
  return {
    update: (value, payload) => bar.update(Math.min(value, Math.max(total, 1)), payload),
    stop: () => bar.stop(),
  };
}

/** A bar that advances with wall-clock time, for fixed-duration phases. */
export function timedProgress(label: string, seconds: number): Progress {
  const bar = progress(label, Math.round(seconds * 10) / 10, 's');
  const start = now();
  const timer = setInterval(() => bar.update(Math.round(secondsSince(start) * 10) / 10), 200);
  timer.unref();
  return {
    update: bar.update,
    stop: () => {
      clearInterval(timer);
      bar.stop();
    },
  };
}

/** Deterministic PRNG (mulberry32), so every run generates the same event mix. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Reads a positive number from the environment (for tuning a run), else the default. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}
