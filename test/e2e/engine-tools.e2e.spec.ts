/**
 * The runtime tools over HTTP (SPEC §4.2, issue 18): the real text-to-speech
 * tool (espeak-ng behind a supervised server) set up, started, health-checked,
 * used, crashed on purpose and restarted, stopped and unloaded; absent
 * programs reported absent; shell metacharacters refused or spoken as text.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { engineCallers, type EngineCallers } from '../support/engine';
import { eventually } from '../support/eventually';

jest.setTimeout(90_000);

const ADMIN = uniqueName('admin');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('runtime tools', () => {
  let t: TestApp;
  let callers: EngineCallers;
  const scratch = mkdtempSync(join(tmpdir(), 'engine-tools-'));

  const tts = async () => (await t.request('GET', '/api/tools/status', { token: callers.user })).body.tools.find((tool: { name: string }) => tool.name === 'tts');
  const events = async () => (await t.app.get<EventStore>(EVENT_STORE).readStream('tool-tts')).map((e) => e.type);

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, ENGINE_TOOL_BACKOFF_MS: '50' });
    callers = await engineCallers(t, ADMIN);
  });
  afterAll(async () => {
    if (t) await t.close();
  });

  it('given no credential, then the status is 401; a user reads the whole manifest, nothing set up', async () => {
    expect((await t.request('GET', '/api/tools/status')).status).toBe(401);
    const res = await t.request('GET', '/api/tools/status', { token: callers.user });
    expect(res.status).toBe(200);
    expect(res.body.tools.map((tool: { name: string }) => tool.name)).toEqual(['tts', 'stt', 'vision', 'image']);
    expect(res.body.tools[0]).toMatchObject({ kind: 'tts', status: 'not_set_up', install: { source: 'debian', package: 'espeak-ng' }, process: null, program: { name: 'espeak-ng', path: null } });
    expect(res.body.totals).toEqual({ running: 0, memory_mb: 0, vram_mb: 0 });
  });

  it('given a plain user, when setting up or starting a tool, then 403', async () => {
    expect((await t.request('POST', '/api/tools/tts/setup', { token: callers.user })).status).toBe(403);
    expect((await t.request('POST', '/api/tools/tts/start', { token: callers.user })).status).toBe(403);
  });

  it('given a tool name with shell metacharacters or outside the manifest, then 400 or 404 and nothing recorded', async () => {
    for (const name of ['tts%3Btouch%20%2Ftmp%2Fpwned', 'tts%24(id)', 'tts%7Cid', '..%2F..%2Fbin%2Fsh', 'TTS']) {
      const res = await t.request('POST', `/api/tools/${name}/setup`, { token: callers.operator });
      expect([400, 404]).toContain(res.status);
      if (res.status === 400) expect(res.body.error).toMatch(/tool_name must be/);
    }
    const unknown = await t.request('POST', '/api/tools/whisper/start', { token: callers.operator });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('no tool named whisper in the manifest (known: tts, stt, vision, image)');
    expect(existsSync('/tmp/pwned')).toBe(false);
    expect(await events()).toEqual([]);
  });

  it('given a local-path tool whose program is absent, when set up, then 503 says where it is missing', async () => {
    const res = await t.request('POST', '/api/tools/stt/setup', { token: callers.operator });
    expect(res.status).toBe(503);
    expect(res.body.error).toBe('whisper-server is not at /opt/whisper.cpp/build/bin/whisper-server on this node: an operator must build it there (local-path tool)');
  });

  it('given a tool not set up, when started, then 409 says to set it up first', async () => {
    const res = await t.request('POST', '/api/tools/vision/start', { token: callers.admin });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('tool vision is not set up: POST /api/tools/vision/setup first');
  });

  it('given the tts tool not running, when asked to speak, then 409', async () => {
    const res = await t.request('POST', '/api/tools/tts/speak', { token: callers.user, body: { text: 'hello' } });
    expect(res.status).toBe(409);
  });

  it('when an operator sets up tts, then espeak-ng is located with its version and ToolSetUp is recorded', async () => {
    const res = await t.request('POST', '/api/tools/tts/setup', { token: callers.operator });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'tts', status: 'set_up', program: { name: 'espeak-ng', path: expect.stringMatching(/\/espeak-ng$/) } });
    expect(res.body.program.version).toMatch(/eSpeak NG/);
    expect(existsSync(join(t.dataDir, 'engine', 'tools', 'tts-server.cjs'))).toBe(true);
    expect(await events()).toEqual(['ToolSetUp']);
  });

  it('when two starts race, then one healthy process runs and one ToolStarted is recorded', async () => {
    const [a, b] = await Promise.all([
      t.request('POST', '/api/tools/tts/start', { token: callers.operator }),
      t.request('POST', '/api/tools/tts/start', { token: callers.admin }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.process.pid).toBe(b.body.process.pid);
    expect(a.body).toMatchObject({ status: 'running', process: { healthy: true } });
    expect(a.body.process.argv).toEqual([process.execPath, join(t.dataDir, 'engine', 'tools', 'tts-server.cjs'), '--port', String(a.body.process.port), '--espeak', a.body.program.path]);
    expect(await events()).toEqual(['ToolSetUp', 'ToolStarted']);
    const health = await fetch(`http://127.0.0.1:${a.body.process.port}/health`);
    expect(health.status).toBe(200);
  });

  it('when a user asks for speech, then a WAV that sox reads, of a length that fits the text', async () => {
    const res = await fetch(`${t.url}/api/tools/tts/speak`, {
      method: 'POST',
      headers: { authorization: `Bearer ${callers.user}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hello from the agent engine.', voice: 'en-us', speed: 175 }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const file = join(scratch, 'hello.wav');
    writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    const seconds = Number(execFileSync('sox', ['--i', '-D', file]).toString().trim());
    expect(seconds).toBeGreaterThan(0.5);
    expect(seconds).toBeLessThan(10);
    expect(execFileSync('sox', ['--i', '-t', file]).toString().trim()).toBe('wav');
  });

  it('given text full of shell metacharacters, when spoken, then it is only text: nothing runs', async () => {
    const marker = join(scratch, 'pwned');
    const text = `$(touch ${marker}); \`touch ${marker}\` | touch ${marker} && touch ${marker}`;
    const res = await t.request('POST', '/api/tools/tts/speak', { token: callers.user, body: { text, voice: 'en' } });
    expect(res.status).toBe(200);
    expect(existsSync(marker)).toBe(false);
  });

  it('given a bad voice or speed, then 400 naming the field', async () => {
    const voice = await t.request('POST', '/api/tools/tts/speak', { token: callers.user, body: { text: 'hi', voice: 'en; rm -rf /' } });
    expect(voice.status).toBe(400);
    expect(JSON.stringify(voice.body)).toMatch(/voice must be/);
    expect((await t.request('POST', '/api/tools/tts/speak', { token: callers.user, body: { text: 'hi', speed: 9000 } })).status).toBe(400);
  });

  it('when the tool’s process is killed, then ToolCrashed is recorded and the supervisor restarts it healthy', async () => {
    const before = await tts();
    process.kill(before.process.pid, 'SIGKILL');
    const after = await eventually('the tool restarted', tts, (tool) => tool.status === 'running' && tool.restarts === 1 && Boolean(tool.process) && tool.process.pid !== before.process.pid && tool.process.healthy, { timeoutMs: 20_000 });
    expect(after).toMatchObject({ restarts: 1, process: { healthy: true }, last_crash: { pid: before.process.pid, signal: 'SIGKILL', cause: 'exited', will_restart: true } });
    expect(await events()).toEqual(['ToolSetUp', 'ToolStarted', 'ToolCrashed', 'ToolStarted']);
    expect(after.logs.some((line: { stream: string; line: string }) => line.stream === 'stdout' && /listening/.test(line.line))).toBe(true);
  });

  it('when stopped, then the process ends and ToolStopped is recorded; stopping again records nothing', async () => {
    const pid = (await tts()).process.pid;
    const res = await t.request('POST', '/api/tools/tts/stop', { token: callers.operator });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'stopped', process: null, stop_reason: 'operator' });
    expect(alive(pid)).toBe(false);
    expect((await t.request('POST', '/api/tools/tts/stop', { token: callers.operator })).status).toBe(200);
    expect((await events()).slice(-1)).toEqual(['ToolStopped']);
    expect((await events()).filter((type) => type === 'ToolStopped')).toHaveLength(1);
  });

  it('when started again and unloaded, then the process ends and ToolUnloaded frees its memory', async () => {
    const started = await t.request('POST', '/api/tools/tts/start', { token: callers.operator });
    expect(started.body).toMatchObject({ status: 'running', restarts: 0 });
    const res = await t.request('POST', '/api/tools/tts/unload', { token: callers.admin });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'unloaded', process: null, unload_reason: 'operator' });
    expect(alive(started.body.process.pid)).toBe(false);
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream('tool-tts');
    expect(stored.at(-1)).toMatchObject({ type: 'ToolUnloaded', data: { freed_memory_mb: 40, freed_vram_mb: 0, reason: 'operator' } });
  });

  it('given a running tool, when the node shuts down, then its process ends; after a restart the log shows it stopped by the restart', async () => {
    const started = await t.request('POST', '/api/tools/tts/start', { token: callers.operator });
    expect(started.body.status).toBe('running');
    const dataDir = t.dataDir;
    await t.close(false);
    expect(alive(started.body.process.pid)).toBe(false);
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN }, dataDir);
    const tool = await tts();
    expect(tool).toMatchObject({ status: 'stopped', stop_reason: 'node_restarted', process: null });
  });
});
