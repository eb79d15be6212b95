import { cpuBusyFraction, parseMeminfo, parseNvidiaSmi, parseProcStat, surveyGpus, vramFraction } from './system-readings';

describe('system readings', () => {
  it('given /proc/meminfo, then RAM is MemTotal and MemAvailable in bytes', () => {
    const ram = parseMeminfo('MemTotal:        8000000 kB\nMemFree:          100000 kB\nMemAvailable:    2000000 kB\n');
    expect(ram).toEqual({ total_bytes: 8_192_000_000, available_bytes: 2_048_000_000, used_bytes: 6_144_000_000, used_fraction: 0.75 });
  });

  it('given a meminfo without totals, then no reading', () => {
    expect(parseMeminfo('Buffers: 1 kB\n')).toBeNull();
  });

  it('given two /proc/stat samples, then the busy fraction is the busy jiffies over all jiffies between them', () => {
    const before = parseProcStat('cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n');
    const after = parseProcStat('cpu  250 0 150 800 100 0 0 0 0 0\ncpu0 1 2 3 4\n');
    expect(before).toEqual({ busy: 200, total: 1000 });
    expect(cpuBusyFraction(before!, after!)).toBe(0.6667);
    expect(cpuBusyFraction(after!, after!)).toBeNull();
  });

  it('given nvidia-smi CSV, then each GPU with its memory; the fullest GPU is the VRAM fraction', () => {
    const gpus = parseNvidiaSmi('0, NVIDIA GeForce RTX 3090, 24576, 6144, 12\n1, Tesla T4, 15360, 15000, [N/A]\n\n');
    expect(gpus).toEqual([
      { index: 0, name: 'NVIDIA GeForce RTX 3090', memory_total_mb: 24576, memory_used_mb: 6144, utilization_pct: 12 },
      { index: 1, name: 'Tesla T4', memory_total_mb: 15360, memory_used_mb: 15000, utilization_pct: null },
    ]);
    expect(vramFraction(gpus)).toBe(0.9766);
    expect(vramFraction([])).toBeNull();
  });

  it('given no nvidia-smi program, then the survey says no GPU and why', async () => {
    await expect(surveyGpus('nvidia-smi-that-does-not-exist')).resolves.toEqual({
      gpu_available: false,
      gpus: [],
      absent_reason: 'nvidia-smi-that-does-not-exist not found',
    });
  });
});
