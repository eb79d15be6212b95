/**
 * VRAM and the model lifecycle over HTTP (SPEC §4.2, issue 18). This machine
 * has no GPU, so the GPUs are those a stand-in `nvidia-smi` prints (the
 * format the real one prints with `--format=csv,noheader,nounits`), and two
 * GPU tools are real supervised servers added through ENGINE_TOOLS_FILE:
 * priorities, offload to the CPU (the tool restarts with its cpu_args) and
 * the eviction policy under VRAM pressure.
 */
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { ModelEvictionSweeper } from '../../src/sagas/model-eviction.sweeper';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { engineCallers, type EngineCallers } from '../support/engine';

jest.setTimeout(90_000);

const ADMIN = uniqueName('admin');
const dir = mkdtempSync(join(tmpdir(), 'engine-lifecycle-'));
const gpuFile = join(dir, 'gpus.csv');
const setGpus = (usedMb: number) => writeFileSync(gpuFile, `0, Stand-in GPU, 10000, ${usedMb}, 40\n`);

// the stand-in nvidia-smi: prints the file the test writes (it takes the real one's arguments and ignores them)
const fakeSmi = join(dir, 'nvidia-smi');
writeFileSync(fakeSmi, `#!${process.execPath}\nprocess.stdout.write(require('node:fs').readFileSync(${JSON.stringify(gpuFile)}, 'utf8'));\n`);
chmodSync(fakeSmi, 0o755);

// a GPU tool's server: healthy on /health, and tells how it was started on /argv
const server = join(dir, 'gpu-server.cjs');
writeFileSync(
  server,
  `const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
require('node:http').createServer((req, res) => res.end(JSON.stringify({ argv: process.argv.slice(2) }))).listen(port, '127.0.0.1');\n`,
);
const tool = (name: string, model: string, vram: number) => ({
  name,
  kind: 'vision',
  description: `a stand-in GPU tool (${model})`,
  program: 'node',
  install: { source: 'debian', package: 'nodejs' },
  command: ['{program}', server, '--port', '{port}'],
  cpu_args: ['--cpu'],
  health: { kind: 'http', path: '/health' },
  estimate: { memory_mb: 100, vram_mb: vram },
  model,
});
const toolsFile = join(dir, 'tools.json');
writeFileSync(toolsFile, JSON.stringify([tool('gpu-a', 'model-a', 3000), tool('gpu-b', 'model-b', 2000)]));

describe('VRAM and the model lifecycle', () => {
  let t: TestApp;
  let callers: EngineCallers;
  const lifecycle = async () => (await t.request('GET', '/api/tools/lifecycle', { token: callers.user })).body;
  const model = async (name: string) => (await lifecycle()).models.find((m: { model: string }) => m.model === name);
  const stream = async (id: string) => (await t.app.get<EventStore>(EVENT_STORE).readStream(id)).map((e) => e.type);

  beforeAll(async () => {
    setGpus(4000);
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, ENGINE_NVIDIA_SMI: fakeSmi, ENGINE_TOOLS_FILE: toolsFile, ENGINE_EVICTION_SWEEP_MS: '3600000' });
    callers = await engineCallers(t, ADMIN);
  });
  afterAll(() => t.close());

  it('given no credential, then 401; a user sees the GPUs nvidia-smi reports and the models that use VRAM', async () => {
    expect((await t.request('GET', '/api/tools/vram')).status).toBe(401);
    const res = await t.request('GET', '/api/tools/vram', { token: callers.user });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      gpu_available: true,
      gpus: [{ index: 0, name: 'Stand-in GPU', memory_total_mb: 10000, memory_used_mb: 4000, utilization_pct: 40 }],
      used_fraction: 0.4,
      totals: { total_mb: 10000, used_mb: 4000, free_mb: 6000 },
    });
    expect(res.body.models.map((m: { model: string }) => m.model)).toEqual(['llava-v1.5-7b', 'stable-diffusion-1.5', 'model-a', 'model-b']);
  });

  it('then the lifecycle lists the tools’ models and the LLM port’s, all warm on the GPU, with hive hints from the compute settings', async () => {
    const body = await lifecycle();
    expect(body.models.map((m: { model: string }) => m.model)).toEqual(['espeak-ng', 'whisper-base.en', 'llava-v1.5-7b', 'stable-diffusion-1.5', 'model-a', 'model-b', 'offline']);
    expect(body.models.every((m: { priority: string; placement: string }) => m.priority === 'warm' && m.placement === 'gpu')).toBe(true);
    expect(body.models.at(-1)).toMatchObject({ model: 'offline', source: 'llm', managed: false, loaded: true });
    expect(body.vram_pressure).toEqual({ gpu_available: true, used_fraction: 0.4, threshold: 0.9, over_threshold: false, estimated_held_mb: 0 });
    expect(body.hive_hints).toEqual({
      takes_hive_work: true,
      refusal: null,
      hive_compute_policy: 'local_preferred',
      max_hive_gpu_pct: 50,
      offered_gpu_hours_per_day: expect.any(Number),
      vram_budget_mb: 5000,
      vram_available_for_hive_mb: 5000,
      servable_models: ['offline'],
    });
  });

  it('given a plain user, a bad priority, a malformed or unknown model, then 403, 400 naming the field, 400, 404', async () => {
    expect((await t.request('POST', '/api/tools/lifecycle/model-a/priority', { token: callers.user, body: { priority: 'hot' } })).status).toBe(403);
    const bad = await t.request('POST', '/api/tools/lifecycle/model-a/priority', { token: callers.admin, body: { priority: 'urgent' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('priority must be one of pinned, hot, warm, cold, evictable');
    expect((await t.request('POST', '/api/tools/lifecycle/model-a%3Brm%20-rf/priority', { token: callers.admin, body: { priority: 'hot' } })).status).toBe(400);
    const unknown = await t.request('POST', '/api/tools/lifecycle/gpt-9/offload', { token: callers.admin });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/^no model named gpt-9 on this node \(known: espeak-ng, /);
  });

  it('when an admin pins a model, then ModelPriorityChanged is recorded once and the lifecycle shows it', async () => {
    const res = await t.request('POST', '/api/tools/lifecycle/model-b/priority', { token: callers.admin, body: { priority: 'pinned' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'model-b', priority: 'pinned', priority_changed_by: expect.any(String) });
    await t.request('POST', '/api/tools/lifecycle/model-b/priority', { token: callers.operator, body: { priority: 'pinned' } });
    expect(await stream('model-model-b')).toEqual(['ModelPriorityChanged']);
  });

  it('given VRAM pressure past the threshold, when the policy runs, then the lowest-priority loaded model is unloaded and the pinned one stays', async () => {
    for (const name of ['gpu-a', 'gpu-b']) {
      expect((await t.request('POST', `/api/tools/${name}/setup`, { token: callers.operator })).status).toBe(200);
      expect((await t.request('POST', `/api/tools/${name}/start`, { token: callers.operator })).body.status).toBe('running');
    }
    expect((await lifecycle()).eviction).toEqual({ threshold: 0.9, order: ['model-a'], next: null });
    setGpus(9600);
    const sweeper = t.app.get(ModelEvictionSweeper);
    expect(await sweeper.sweep()).toBe('model-a'); // the policy measures afresh
    expect((await lifecycle()).vram_pressure).toMatchObject({ used_fraction: 0.96, over_threshold: true });
    expect(await model('model-a')).toMatchObject({ loaded: false, evictions: 1, last_eviction: { tool: 'gpu-a', vram_pressure: 0.96, threshold: 0.9, freed_vram_mb: 3000 } });
    const tools = (await t.request('GET', '/api/tools/status', { token: callers.user })).body.tools;
    expect(tools.find((x: { name: string }) => x.name === 'gpu-a')).toMatchObject({ status: 'unloaded', unload_reason: 'eviction', process: null });
    expect(tools.find((x: { name: string }) => x.name === 'gpu-b')).toMatchObject({ status: 'running' });
    expect(await stream('model-model-a')).toEqual(['ModelEvicted']);
    expect(await sweeper.sweep()).toBeNull(); // only the pinned model is left
    expect((await lifecycle()).eviction).toEqual({ threshold: 0.9, order: [], next: null });
  });

  it('when a running GPU model is offloaded, then ModelOffloaded is recorded and its tool restarts on the CPU with its cpu_args', async () => {
    const res = await t.request('POST', '/api/tools/lifecycle/model-b/offload', { token: callers.admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ model: 'model-b', placement: 'cpu', restarted: true, vram_held_mb: 0, offloadable: false });
    const gpuB = (await t.request('GET', '/api/tools/status', { token: callers.user })).body.tools.find((x: { name: string }) => x.name === 'gpu-b');
    expect(gpuB.process.argv.slice(-1)).toEqual(['--cpu']);
    const told = (await (await fetch(`http://127.0.0.1:${gpuB.process.port}/argv`)).json()) as { argv: string[] };
    expect(told.argv).toContain('--cpu');
    expect(await stream('model-model-b')).toEqual(['ModelPriorityChanged', 'ModelOffloaded']);
  });

  it('given a model that uses no GPU or is the LLM port’s, when offloaded, then 409 says why', async () => {
    const tts = await t.request('POST', '/api/tools/lifecycle/espeak-ng/offload', { token: callers.admin });
    expect(tts.status).toBe(409);
    expect(tts.body.error).toBe('model espeak-ng does not use the GPU: nothing to offload');
    const offline = await t.request('POST', '/api/tools/lifecycle/offline/offload', { token: callers.admin });
    expect(offline.status).toBe(409);
    expect(offline.body.error).toBe('model offline is the offline engine: it uses no GPU');
  });
});
