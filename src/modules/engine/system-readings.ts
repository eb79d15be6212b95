/**
 * What the node's hardware reports, read honestly: RAM from /proc/meminfo,
 * CPU time from /proc/stat, disk from statfs, GPUs from `nvidia-smi`. A source
 * that is absent (no /proc, no nvidia-smi, no GPU) is reported absent, never
 * guessed. The parsers are pure and unit-tested; the readers do the I/O.
 */
import { execFile } from 'node:child_process';
import { readFile, statfs } from 'node:fs/promises';

export interface RamReading {
  total_bytes: number;
  available_bytes: number;
  used_bytes: number;
  used_fraction: number;
}

/** Jiffies since boot, summed over every CPU (the `cpu` line of /proc/stat). */
export interface CpuTimes {
  busy: number;
  total: number;
}

export interface DiskReading {
  path: string;
  total_bytes: number;
  available_bytes: number;
  used_fraction: number;
}

export interface GpuReading {
  index: number;
  name: string;
  memory_total_mb: number;
  memory_used_mb: number;
  utilization_pct: number | null;
}

export interface GpuSurvey {
  gpu_available: boolean;
  gpus: GpuReading[];
  /** why there is no reading: `nvidia-smi not found`, its error, or null */
  absent_reason: string | null;
}

const round = (value: number, digits = 4): number => Math.round(value * 10 ** digits) / 10 ** digits;

/** /proc/meminfo → RAM; MemAvailable is what the kernel says can be allocated without swapping. */
export function parseMeminfo(text: string): RamReading | null {
  const kib = (key: string): number | null => {
    const match = new RegExp(`^${key}:\\s+(\\d+)\\s*kB`, 'm').exec(text);
    return match ? Number(match[1]) * 1024 : null;
  };
  const total = kib('MemTotal');
  const available = kib('MemAvailable') ?? kib('MemFree');
  if (total === null || available === null || total <= 0) return null;
  return { total_bytes: total, available_bytes: available, used_bytes: total - available, used_fraction: round((total - available) / total) };
}

/** The aggregate `cpu` line of /proc/stat: busy = everything but idle and iowait. */
export function parseProcStat(text: string): CpuTimes | null {
  const line = /^cpu\s+([\d\s]+)$/m.exec(text);
  if (!line) return null;
  const fields = line[1].trim().split(/\s+/).map(Number);
  if (fields.length < 4 || fields.some((n) => !Number.isFinite(n))) return null;
  // user nice system idle iowait irq softirq steal (guest time is already counted in user)
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = fields;
  const idleAll = idle + iowait;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idleAll };
}

/** The busy fraction between two samples; null when no time passed between them. */
export function cpuBusyFraction(before: CpuTimes, after: CpuTimes): number | null {
  const total = after.total - before.total;
  if (total <= 0) return null;
  return round(Math.min(1, Math.max(0, (after.busy - before.busy) / total)));
}

/** `nvidia-smi --query-gpu=index,name,memory.total,memory.used,utilization.gpu --format=csv,noheader,nounits` */
export function parseNvidiaSmi(text: string): GpuReading[] {
  const gpus: GpuReading[] = [];
  for (const line of text.split('\n')) {
    const cells = line.split(',').map((cell) => cell.trim());
    if (cells.length < 4 || cells[0] === '') continue;
    const [index, name, total, used, utilization] = cells;
    if (!/^\d+$/.test(index) || !/^\d+(\.\d+)?$/.test(total) || !/^\d+(\.\d+)?$/.test(used)) continue;
    gpus.push({
      index: Number(index),
      name,
      memory_total_mb: Number(total),
      memory_used_mb: Number(used),
      utilization_pct: utilization !== undefined && /^\d+(\.\d+)?$/.test(utilization) ? Number(utilization) : null,
    });
  }
  return gpus;
}

/** The fullest GPU's used fraction; null without GPUs. */
export function vramFraction(gpus: readonly GpuReading[]): number | null {
  const fractions = gpus.filter((gpu) => gpu.memory_total_mb > 0).map((gpu) => gpu.memory_used_mb / gpu.memory_total_mb);
  return fractions.length === 0 ? null : round(Math.max(...fractions));
}

export async function readRam(path = '/proc/meminfo'): Promise<RamReading | null> {
  try {
    return parseMeminfo(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
}

export async function readCpuTimes(path = '/proc/stat'): Promise<CpuTimes | null> {
  try {
    return parseProcStat(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
}

export async function readDisk(path: string): Promise<DiskReading | null> {
  try {
    const stats = await statfs(path);
    const total = stats.blocks * stats.bsize;
    const available = stats.bavail * stats.bsize;
    // used as df counts it: blocks minus free (root's reserve counts as used for others)
    const used = total - stats.bfree * stats.bsize;
    const usable = used + available;
    return { path, total_bytes: total, available_bytes: available, used_fraction: usable > 0 ? round(used / usable) : 0 };
  } catch {
    return null;
  }
}

/** Runs `nvidia-smi` (argv, no shell) with a time limit; an absent program or a failing driver is an honest "no GPU". */
export function surveyGpus(program: string, timeoutMs = 3000): Promise<GpuSurvey> {
  const query = ['--query-gpu=index,name,memory.total,memory.used,utilization.gpu', '--format=csv,noheader,nounits'];
  return new Promise((resolve) => {
    execFile(program, query, { timeout: timeoutMs, windowsHide: true }, (error, stdout) => {
      if (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason = code === 'ENOENT' ? `${program} not found` : `${program} failed: ${error.message.split('\n')[0]}`;
        resolve({ gpu_available: false, gpus: [], absent_reason: reason });
        return;
      }
      const gpus = parseNvidiaSmi(String(stdout));
      resolve({ gpu_available: gpus.length > 0, gpus, absent_reason: gpus.length > 0 ? null : `${program} listed no GPU` });
    });
  });
}
