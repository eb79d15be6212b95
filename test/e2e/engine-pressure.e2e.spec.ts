/**
 * GET /api/system/pressure (SPEC §4.2, issue 18): readings compared with what
 * the test reads from /proc itself, and the throttle factor's formula.
 */
import { readFileSync, statfsSync } from 'node:fs';
import { cpus } from 'node:os';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { engineCallers, type EngineCallers } from '../support/engine';
import { eventually } from '../support/eventually';

jest.setTimeout(60_000);

const ADMIN = uniqueName('admin');

function meminfoBytes(key: string): number {
  const match = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync('/proc/meminfo', 'utf8'));
  return Number(match![1]) * 1024;
}

describe('system pressure', () => {
  let t: TestApp;
  let callers: EngineCallers;

  beforeAll(async () => {
    // soft 0 and hard 0.0001: any load at all is past the hard threshold, so the whole pause applies
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, ENGINE_CPU_SAMPLE_MS: '100', ENGINE_PRESSURE_SOFT: '0', ENGINE_PRESSURE_HARD: '0.0001', ENGINE_THROTTLE_MAX_DELAY_MS: '1500' });
    callers = await engineCallers(t, ADMIN);
  });
  afterAll(() => t.close());

  it('given no credential, then 401', async () => {
    expect((await t.request('GET', '/api/system/pressure')).status).toBe(401);
  });

  it('given a user, then RAM agrees with /proc/meminfo read by the test (within 5 %)', async () => {
    const res = await t.request('GET', '/api/system/pressure', { token: callers.user });
    expect(res.status).toBe(200);
    const total = meminfoBytes('MemTotal');
    const available = meminfoBytes('MemAvailable');
    expect(res.body.ram.total_bytes).toBe(total);
    expect(Math.abs(res.body.ram.available_bytes - available)).toBeLessThan(total * 0.05);
    expect(res.body.ram.used_bytes).toBe(res.body.ram.total_bytes - res.body.ram.available_bytes);
    expect(Math.abs(res.body.ram.used_fraction - (total - available) / total)).toBeLessThan(0.05);
  });

  it('then CPU is a busy fraction between two samples, with the cores and load average the test sees', async () => {
    const reading = await eventually(
      'a CPU delta',
      async () => (await t.request('GET', '/api/system/pressure', { token: callers.user })).body,
      (body) => body.cpu.busy_fraction !== null,
    );
    expect(reading.cpu.busy_fraction).toBeGreaterThanOrEqual(0);
    expect(reading.cpu.busy_fraction).toBeLessThanOrEqual(1);
    expect(reading.cpu.cores).toBe(cpus().length);
    expect(reading.cpu.load_average).toHaveLength(3);
  });

  it('then disk is the DATA_DIR file system as statfs reports it', async () => {
    const res = await t.request('GET', '/api/system/pressure', { token: callers.user });
    const stats = statfsSync(t.dataDir);
    expect(res.body.disk.path).toBe(t.dataDir);
    expect(res.body.disk.total_bytes).toBe(stats.blocks * stats.bsize);
    expect(Math.abs(res.body.disk.available_bytes - stats.bavail * stats.bsize)).toBeLessThan(stats.blocks * stats.bsize * 0.01);
  });

  it('then VRAM is reported absent on a node without nvidia-smi, never guessed', async () => {
    const res = await t.request('GET', '/api/system/pressure', { token: callers.user });
    expect(res.body.vram).toEqual({ gpu_available: false, gpus: [], absent_reason: 'nvidia-smi not found', used_fraction: null });
  });

  it('then the throttle follows the documented formula: past the hard threshold, factor 0 and the whole pause', async () => {
    const res = await t.request('GET', '/api/system/pressure', { token: callers.user });
    const fractions = [res.body.ram.used_fraction, res.body.cpu.busy_fraction, res.body.disk.used_fraction].filter((n) => n !== null);
    expect(res.body.pressure).toBe(Math.max(...fractions));
    expect(res.body.thresholds).toEqual({ soft: 0, hard: 0.0001, max_delay_ms: 1500 });
    expect(res.body.throttle_factor).toBe(0);
    expect(res.body.pause_ms).toBe(1500);
    expect(['ram', 'cpu', 'disk']).toContain(res.body.dominant);
  });
});
