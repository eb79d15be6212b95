import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../../config/config';
import { eventually } from '../../../test/support/eventually';
import type { ToolManifest } from './tool-manifest';
import { type CrashReport, ToolSupervisor } from './tool-supervisor';

const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
const sick = join(dir, 'sick');
// healthy until the file `sick` exists
const server = join(dir, 'server.cjs');
writeFileSync(
  server,
  `const fs = require('node:fs'); const port = Number(process.argv[2]);
require('node:http').createServer((req, res) => { res.statusCode = fs.existsSync(${JSON.stringify(sick)}) ? 500 : 200; res.end(); }).listen(port, '127.0.0.1');\n`,
);
const manifest = { name: 'probe', health: { kind: 'http', path: '/health' } } as ToolManifest;
const config = { engine: { toolRestartLimit: 1, toolBackoffMs: 20, toolHealthMs: 50 } } as AppConfig;

describe('the tool supervisor', () => {
  const supervisor = new ToolSupervisor(config);
  const crashes: CrashReport[] = [];
  const restarts: number[] = [];
  const gaveUp: string[] = [];
  supervisor.listen({
    onCrash: async (report) => void crashes.push(report),
    onRestart: async (_tool, launched) => void restarts.push(launched.pid),
    onGaveUp: async (_tool, reason) => void gaveUp.push(reason),
  });
  afterAll(() => supervisor.onApplicationShutdown());

  it('given a process whose health check fails three times in a row, then it is killed as unhealthy and restarted; past the limit it stays down', async () => {
    const first = await supervisor.launch(manifest, (port) => [process.execPath, server, String(port)]);
    expect(supervisor.live('probe')).toMatchObject({ pid: first.pid, healthy: true });
    writeFileSync(sick, '');
    await eventually('the unhealthy process killed', () => crashes.length === 1, { timeoutMs: 10_000 });
    expect(crashes[0]).toMatchObject({ tool: 'probe', pid: first.pid, cause: 'unhealthy', signal: 'SIGKILL', willRestart: true });
    rmSync(sick); // healthy again: the restart comes up
    await eventually('the restart', () => restarts.length === 1, { timeoutMs: 10_000 });
    expect(supervisor.live('probe')?.pid).toBe(restarts[0]);
    writeFileSync(sick, '');
    await eventually('the second crash', () => crashes.length === 2, { timeoutMs: 10_000 });
    expect(crashes[1]).toMatchObject({ cause: 'unhealthy', willRestart: false });
    expect(supervisor.live('probe')).toBeNull();
    expect(supervisor.restarting('probe')).toBe(false);
    expect(supervisor.logs('probe', 200).some((line) => /health check failed 3 times/.test(line.line))).toBe(true);
    expect(gaveUp).toEqual([]);
  });
});
