/**
 * The coding tools over HTTP (SPEC §4.2, issue 18): CLI detection, the
 * built-in executor (the LLM port, here a local OpenAI-compatible test
 * server, writes the code; the sandbox runs it), a task that passes, one that
 * times out, one that carries its own code, the benchmarks of the recorded
 * runs, and installs refused outside the allow-list.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { engineCallers, type EngineCallers } from '../support/engine';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server';

jest.setTimeout(90_000);

const ADMIN = uniqueName('admin');

/** what the test model answers: a program for each task it knows */
function program(task: string): string {
  if (task.includes('6 times 7')) return 'Here you go:\n```js\nconsole.log(6 * 7);\n```';
  if (task.includes('forever')) return '```js\nwhile (true) {}\n```';
  if (task.includes('fail')) return '```js\nconsole.error("cannot"); process.exit(2);\n```';
  return '```js\nconsole.log("?")\n```';
}

describe('coding tools', () => {
  let t: TestApp;
  let llm: OpenAiTestServer;
  let registry: Server;
  let callers: EngineCallers;
  const scratch = mkdtempSync(join(tmpdir(), 'engine-coding-'));

  beforeAll(async () => {
    llm = await startOpenAiTestServer({
      models: ['coder-1'],
      reply: (request) => program(String([...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '')),
    });
    // an npm registry that knows no package: installs fail fast, and the failure is recorded
    registry = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}'));
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const { port } = registry.address() as { port: number };
    t = await startTestApp({
      SVC_ADMIN_USERS: ADMIN,
      LLM_BASE_URL: llm.url,
      LLM_MODEL: 'coder-1',
      ENGINE_CODING_TIMEOUT_MS: '3000',
      ENGINE_ALLOW_INSTALL: '1',
      ENGINE_NPM_REGISTRY: `http://127.0.0.1:${port}/`,
    });
    callers = await engineCallers(t, ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await new Promise((resolve) => registry?.close(resolve));
  });

  const execute = (body: Record<string, unknown>, token = callers.user) => t.request('POST', '/coding/execute', { token, body });

  it('given no credential, then 401; a user sees the CLIs found on this node with their versions', async () => {
    expect((await t.request('GET', '/coding/tools')).status).toBe(401);
    const res = await t.request('GET', '/coding/tools', { token: callers.user });
    expect(res.status).toBe(200);
    const node = res.body.tools.find((tool: { name: string }) => tool.name === 'node');
    expect(node).toMatchObject({ installed: true, version: process.version, installable: false });
    const codex = res.body.tools.find((tool: { name: string }) => tool.name === 'codex');
    expect(codex).toMatchObject({ installable: true, package: '@openai/codex' });
    expect(res.body.executors).toEqual([{ name: 'builtin', available: true, reason: null, model: 'coder-1', runs_with: `node ${process.version} (sandboxed)` }]);
  });

  it('when a task is executed, then the model writes the program, the sandbox runs it, and it passes', async () => {
    const res = await execute({ task: 'print 6 times 7', task_type: 'arithmetic' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tool: 'builtin', task_type: 'arithmetic', status: 'passed', exit_code: 0, stdout: '42\n', model: 'coder-1', code_source: 'model', code: 'console.log(6 * 7);' });
    expect(llm.requests.at(-1)?.messages.at(-1)).toEqual({ role: 'user', content: 'print 6 times 7' });
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream(`codingRun-${res.body.run_id}`);
    expect(stored.map((e) => e.type)).toEqual(['CodingTaskRan']);
  });

  it('when the program runs past the time limit, then it is killed and the run timed out', async () => {
    const res = await execute({ task: 'loop forever', task_type: 'arithmetic', timeout_ms: 500 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'timed_out', exit_code: null, signal: 'SIGKILL', timeout_ms: 500 });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(450);
    expect(res.body.duration_ms).toBeLessThan(3000);
  });

  it('given a task that carries its code, then no model is asked and the code runs; a failing program is a failed run', async () => {
    const asked = llm.requests.length;
    const res = await execute({ task: 'sum', task_type: 'client-code', code: 'console.log([1, 2, 3].reduce((a, b) => a + b, 0))' });
    expect(res.body).toMatchObject({ status: 'passed', stdout: '6\n', code_source: 'client', model: null });
    const failing = await execute({ task: 'this will fail', task_type: 'client-code', code: 'throw new Error("boom")' });
    expect(failing.body).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(failing.body.stderr).toContain('boom');
    expect(llm.requests.length).toBe(asked);
  });

  it('given shell metacharacters in the task or the code, then they are only text: nothing runs outside the sandbox', async () => {
    const marker = join(scratch, 'pwned');
    const res = await execute({
      task: `$(touch ${marker}); \`touch ${marker}\``,
      task_type: 'client-code',
      code: `const fs = require('fs'); try { require('child_process').execSync('touch ${marker}') } catch (e) { console.log(e.code) } try { fs.writeFileSync(${JSON.stringify(marker)}, 'x') } catch (e) { console.log(e.code) }`,
    });
    expect(res.body.stdout).toBe('ERR_ACCESS_DENIED\nERR_ACCESS_DENIED\n');
    expect(existsSync(marker)).toBe(false);
    for (const body of [{ task: 'x', preferred_tool: 'builtin; rm -rf /' }, { task: 'x', task_type: 'a|b' }, { task: 'x', model: 'm && id' }]) {
      expect((await execute(body)).status).toBe(400);
    }
  });

  it('given a preferred tool that is not an executor, then 409 says which executor runs tasks', async () => {
    const res = await execute({ task: 'x', preferred_tool: 'codex' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(/^preferred_tool codex is not an executor of this node: tasks run with builtin/);
  });

  it('then the benchmarks aggregate the recorded runs: success rate and median time per tool and task type', async () => {
    const res = await t.request('GET', '/coding/benchmarks', { token: callers.user });
    expect(res.status).toBe(200);
    expect(res.body.by_tool).toEqual([expect.objectContaining({ tool: 'builtin', task_type: null, runs: 5, passed: 3, failed: 1, timed_out: 1, success_rate: 0.6 })]);
    const arithmetic = res.body.by_tool_and_task_type.find((row: { task_type: string }) => row.task_type === 'arithmetic');
    expect(arithmetic).toMatchObject({ runs: 2, passed: 1, timed_out: 1, success_rate: 0.5 });
    expect(arithmetic.median_ms).toBeGreaterThan(0);
  });

  it('given a tool outside the allow-list or with shell metacharacters, then 400; a plain user may not install', async () => {
    const other = await t.request('POST', '/coding/install', { token: callers.admin, body: { tool_name: 'left-pad' } });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('tool_name must be one of claude, codex, gemini');
    expect((await t.request('POST', '/coding/install', { token: callers.admin, body: { tool_name: 'codex; rm -rf /' } })).status).toBe(400);
    expect((await t.request('POST', '/coding/install', { token: callers.user, body: { tool_name: 'codex' } })).status).toBe(403);
  });

  it('when an install fails at the registry, then 503 says so and the failed attempt is recorded', async () => {
    const res = await t.request('POST', '/coding/install', { token: callers.operator, body: { tool_name: 'codex' } });
    expect(res.status).toBe(503);
    expect(res.body.error).toMatch(/^installing codex \(@openai\/codex\) failed: npm exited with 1/);
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream('codingTool-codex');
    expect(stored).toEqual([expect.objectContaining({ type: 'CodingToolInstalled', data: expect.objectContaining({ outcome: 'failed', package: '@openai/codex', version: null }) })]);
  });
});
