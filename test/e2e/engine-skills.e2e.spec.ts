/**
 * Skills over HTTP (SPEC §4.2, issue 18): SKILL.md ingested (and refused
 * with a 400 naming the field), listed, read, used by a chat turn (its
 * instructions reach the model), discovered in this node's folders and in a
 * GitHub repository through the REST API (a local server speaking that API;
 * 404 and 503 when it does not know the repository or cannot be reached),
 * and deleted.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { engineCallers, type EngineCallers } from '../support/engine';
import { startOpenAiTestServer, type OpenAiTestServer } from '../support/openai-test-server';

jest.setTimeout(90_000);

const ADMIN = uniqueName('admin');
const TOKEN = 'ghp_test_token';

const skillMd = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\nlicense: MIT\n---\n${body}\n`;
const HAIKU = skillMd('haiku-writer', 'Writes haiku. Use when the user asks for a haiku.', '# Haiku\nAnswer with three lines of 5, 7 and 5 syllables.');

/** A GitHub REST API for one repository, acme/skills, that checks the token. */
function githubApi(): Promise<{ url: string; server: Server; seen: string[] }> {
  const files: Record<string, string> = {
    'skills/commit-messages/SKILL.md': skillMd('commit-messages', 'Writes commit messages that say what and why.', 'Write the subject in the imperative.'),
    'skills/broken/SKILL.md': '---\ndescription: no name here\n---\nbody',
  };
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(401, { message: 'Bad credentials' });
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/repos/acme/failing') return json(500, { message: 'Server Error' });
    if (url.pathname === '/repos/acme/skills') return json(200, { full_name: 'acme/skills', default_branch: 'trunk' });
    if (url.pathname === '/repos/acme/skills/git/trees/trunk' && url.searchParams.get('recursive') === '1') {
      return json(200, { tree: [{ path: 'README.md', type: 'blob' }, { path: 'skills', type: 'tree' }, ...Object.keys(files).map((path) => ({ path, type: 'blob' }))], truncated: false });
    }
    const content = /^\/repos\/acme\/skills\/contents\/(.+)$/.exec(url.pathname);
    if (content && url.searchParams.get('ref') === 'trunk' && files[decodeURIComponent(content[1])] !== undefined) {
      return json(200, { encoding: 'base64', content: Buffer.from(files[decodeURIComponent(content[1])]).toString('base64') });
    }
    return json(404, { message: 'Not Found' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server, seen })));
}

describe('skills', () => {
  let t: TestApp;
  let llm: OpenAiTestServer;
  let github: { url: string; server: Server; seen: string[] };
  let callers: EngineCallers;
  const skillsDir = mkdtempSync(join(tmpdir(), 'engine-skills-'));
  const stream = async (name: string) => (await t.app.get<EventStore>(EVENT_STORE).readStream(`skill-${name}`)).map((e) => e.type);

  beforeAll(async () => {
    mkdirSync(join(skillsDir, 'pdf-notes'));
    writeFileSync(join(skillsDir, 'pdf-notes', 'SKILL.md'), skillMd('pdf-notes', 'Summarises PDFs into notes.', 'Read the PDF, then list its key points.'));
    mkdirSync(join(skillsDir, 'nested', 'bad'), { recursive: true });
    writeFileSync(join(skillsDir, 'nested', 'bad', 'SKILL.md'), '# no front matter');
    llm = await startOpenAiTestServer({ models: ['m1'] });
    github = await githubApi();
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN, LLM_BASE_URL: llm.url, LLM_MODEL: 'm1', SKILLS_DIRS: skillsDir, GITHUB_API_URL: github.url, GITHUB_TOKEN: TOKEN });
    callers = await engineCallers(t, ADMIN);
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
    await new Promise((resolve) => github?.server.close(resolve));
  });

  it('given no credential, then 401; a plain user may list but not ingest', async () => {
    expect((await t.request('GET', '/api/skills/list')).status).toBe(401);
    expect((await t.request('GET', '/api/skills/list', { token: callers.user })).body).toEqual({ skills: [], total: 0 });
    expect((await t.request('POST', '/api/skills/ingest', { token: callers.user, body: { skill_md: HAIKU } })).status).toBe(403);
  });

  it('given a bad SKILL.md, then 400 naming the field, and nothing is recorded', async () => {
    const cases: [string, RegExp][] = [
      ['---\ndescription: x\n---\nbody', /^name is required/],
      ['---\nname: Bad Name\ndescription: x\n---\nbody', /^name must be/],
      ['---\nname: ok-name\n---\nbody', /^description is required/],
      ['---\nname: ok-name\ndescription: x\n---\n', /no instructions/],
      ['no front matter', /must start with a YAML front matter/],
      [skillMd('list', 'x', 'y'), /^name list is reserved/],
    ];
    for (const [text, message] of cases) {
      const res = await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: { skill_md: text } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: {} })).status).toBe(400);
    expect(await stream('ok-name')).toEqual([]);
  });

  it('when an operator ingests a SKILL.md, then SkillIngested is recorded once and the skill is listed and readable', async () => {
    const res = await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: { skill_md: HAIKU } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'haiku-writer', description: 'Writes haiku. Use when the user asks for a haiku.', version: 1, source: { kind: 'upload' }, changed: true });
    expect((await t.request('POST', '/api/skills/ingest', { token: callers.admin, body: { skill_md: HAIKU } })).body).toMatchObject({ version: 1, changed: false });
    expect(await stream('haiku-writer')).toEqual(['SkillIngested']);
    const list = await t.request('GET', '/api/skills/list', { token: callers.user });
    expect(list.body.skills.map((s: { name: string }) => s.name)).toEqual(['haiku-writer']);
    const one = await t.request('GET', '/api/skills/haiku-writer', { token: callers.user });
    expect(one.body.instructions).toBe('# Haiku\nAnswer with three lines of 5, 7 and 5 syllables.');
  });

  it('when the same new SKILL.md is ingested by several callers at once, then it is recorded once; two versions at once are both kept in order', async () => {
    const text = skillMd('race-skill', 'A skill ingested in a race.', 'Do it once.');
    const same = await Promise.all([callers.operator, callers.admin, callers.operator].map((token) => t.request('POST', '/api/skills/ingest', { token, body: { skill_md: text } })));
    expect(same.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(same.filter((r) => r.body.changed)).toHaveLength(1);
    const versions = await Promise.all(['Do it twice.', 'Do it thrice.'].map((body) => t.request('POST', '/api/skills/ingest', { token: callers.admin, body: { skill_md: skillMd('race-skill', 'A skill ingested in a race.', body) } })));
    expect(versions.map((r) => r.body.changed)).toEqual([true, true]);
    const stored = await t.app.get<EventStore>(EVENT_STORE).readStream('skill-race-skill');
    expect(stored.map((e) => (e.data as { version: number }).version)).toEqual([1, 2, 3]);
    expect((await t.request('DELETE', '/api/skills/race-skill', { token: callers.admin })).status).toBe(200);
  });

  it('when a chat turn names the skill, then its instructions reach the model; a turn that does not name it goes without', async () => {
    const chat = (prompt: string) => t.request('POST', '/chat', { token: callers.user, body: { prompt_id: uniqueName('p'), prompt, casual_conv: true } });
    expect((await chat('use haiku-writer: autumn rain')).status).toBe(200);
    const withSkill = llm.requests.at(-1)!;
    expect(withSkill.messages.some((m) => m.role === 'system' && String(m.content).includes('Answer with three lines of 5, 7 and 5 syllables.'))).toBe(true);
    await chat('tell me about autumn rain');
    expect(llm.requests.at(-1)!.messages.some((m) => String(m.content).includes('haiku-writer'))).toBe(false);
  });

  it('when the local folders are discovered, then valid and invalid SKILL.md files are reported; with ingest the valid ones are recorded', async () => {
    const listed = await t.request('POST', '/api/skills/discover/local', { token: callers.operator, body: {} });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ found: 2, valid: 1, ingested: 0, source: { kind: 'local', dirs: [{ path: skillsDir, readable: true }] } });
    expect(listed.body.skills).toEqual([
      { location: join(skillsDir, 'nested', 'bad', 'SKILL.md'), name: null, description: null, valid: false, problem: expect.stringMatching(/front matter/), ingested: null },
      { location: join(skillsDir, 'pdf-notes', 'SKILL.md'), name: 'pdf-notes', description: 'Summarises PDFs into notes.', valid: true, problem: null, ingested: null },
    ]);
    const ingested = await t.request('POST', '/api/skills/discover/local', { token: callers.admin, body: { ingest: true } });
    expect(ingested.body).toMatchObject({ found: 2, valid: 1, ingested: 1 });
    expect((await t.request('GET', '/api/skills/pdf-notes', { token: callers.user })).body.source).toEqual({ kind: 'local', path: join(skillsDir, 'pdf-notes', 'SKILL.md') });
  });

  it('given a folder path outside the skill folders, then 403; inside them, its SKILL.md is ingested', async () => {
    const outside = await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: { path: `${skillsDir}/../` } });
    expect(outside.status).toBe(403);
    expect((await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: { path: '/etc' } })).status).toBe(403);
    const inside = await t.request('POST', '/api/skills/ingest', { token: callers.operator, body: { path: join(skillsDir, 'pdf-notes') } });
    expect(inside.body).toMatchObject({ name: 'pdf-notes', changed: false });
  });

  it('when a GitHub repository is discovered, then its SKILL.md files are read through the API with the token and the valid ones ingested', async () => {
    const res = await t.request('POST', '/api/skills/discover/github', { token: callers.operator, body: { repository: 'acme/skills', ingest: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: { kind: 'github', repository: 'acme/skills', ref: 'trunk' }, found: 2, valid: 1, ingested: 1 });
    expect(res.body.skills.find((s: { valid: boolean }) => !s.valid).problem).toMatch(/^name is required/);
    expect((await t.request('GET', '/api/skills/commit-messages', { token: callers.user })).body).toMatchObject({
      source: { kind: 'github', repository: 'acme/skills', path: 'skills/commit-messages/SKILL.md', ref: 'trunk' },
      instructions: 'Write the subject in the imperative.',
    });
    expect(github.seen).toContain('GET /repos/acme/skills/git/trees/trunk?recursive=1');
  });

  it('given an unknown repository, a malformed one, an API that fails or one offline, then 404, 400, 502 and 503', async () => {
    const missing = await t.request('POST', '/api/skills/discover/github', { token: callers.operator, body: { repository: 'acme/missing' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("repository acme/missing not found on GitHub (or not visible with this node's token)");
    expect((await t.request('POST', '/api/skills/discover/github', { token: callers.operator, body: { repository: 'acme/x; rm -rf /' } })).status).toBe(400);
    const failing = await t.request('POST', '/api/skills/discover/github', { token: callers.operator, body: { repository: 'acme/failing' } });
    expect(failing.status).toBe(502);
    expect(failing.body).toEqual({ success: false, error: 'the GitHub API answered 500: Server Error' });
    await new Promise((resolve) => github.server.close(resolve));
    github.server.closeAllConnections();
    const offline = await t.request('POST', '/api/skills/discover/github', { token: callers.operator, body: { repository: 'acme/skills' } });
    expect(offline.status).toBe(503);
    expect(offline.body.error).toMatch(/^the GitHub API at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
  });

  it('when an operator deletes a skill, then SkillRemoved is recorded, it is gone from the list and a chat no longer uses it; a user may not delete', async () => {
    expect((await t.request('DELETE', '/api/skills/haiku-writer', { token: callers.user })).status).toBe(403);
    const res = await t.request('DELETE', '/api/skills/haiku-writer', { token: callers.operator });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ removed: true, name: 'haiku-writer', version: 1 });
    expect(await stream('haiku-writer')).toEqual(['SkillIngested', 'SkillRemoved']);
    expect((await t.request('GET', '/api/skills/haiku-writer', { token: callers.user })).status).toBe(404);
    expect((await t.request('DELETE', '/api/skills/haiku-writer', { token: callers.operator })).status).toBe(404);
    const list = await t.request('GET', '/api/skills/list', { token: callers.user });
    expect(list.body.skills.map((s: { name: string }) => s.name)).toEqual(['commit-messages', 'pdf-notes']);
    await t.request('POST', '/chat', { token: callers.user, body: { prompt_id: uniqueName('p'), prompt: 'use haiku-writer: snow', casual_conv: true } });
    expect(llm.requests.at(-1)!.messages.some((m) => String(m.content).includes('5, 7 and 5'))).toBe(false);
  });
});
