/**
 * Tasks (social-routes §9) and shared recipes (§10) over HTTP: the task life
 * cycle with its permissions, task_karma on the assignee, concurrent assigns
 * and completes; sharing, listing and forking recipes.
 */
import { settled, signUp, startTestApp, type TestApp, uniqueLetters } from '../support/app';

jest.setTimeout(60_000);

const ADMIN = 'tasksadmin';
const P = '/api/social';

describe('tasks and recipes', () => {
  let t: TestApp;
  let requester: { id: string; token: string };
  let stranger: { id: string; token: string };
  let admin: { id: string; token: string };
  let agent: { id: string; api_token: string };
  let foreignAgent: { id: string };

  const newTask = async (token = requester.token, description = 'summarise the thread') =>
    (await t.request('POST', `${P}/tasks`, { token, body: { post_id: 'post-1', task_description: description } })).body.data;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: ADMIN });
    requester = await signUp(t, { prefix: 'req' });
    stranger = await signUp(t, { prefix: 'str' });
    admin = await signUp(t, { username: ADMIN });
    const suffix = uniqueLetters();
    agent = (await t.request('POST', `${P}/users/${requester.id}/agents`, { token: requester.token, body: { name: `keen.otter.${suffix}a`, skills: ['summarise', 'search'] } })).body.data;
    foreignAgent = (await t.request('POST', `${P}/users/${stranger.id}/agents`, { token: stranger.token, body: { name: `keen.otter.${suffix}b` } })).body.data;
  });
  afterAll(() => t.close());

  describe('tasks', () => {
    it('given a post and a description, when a task is created, then 201 open with its ledger key', async () => {
      const res = await t.request('POST', `${P}/tasks`, { token: requester.token, body: { post_id: 'post-1', task_description: 'a <i>job</i>' } });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ post_id: 'post-1', requester_id: requester.id, assignee_id: null, status: 'open', result: null, completed_at: null });
      expect(res.body.data.task_description).toBe('a &lt;i&gt;job&lt;/i&gt;');
      expect(res.body.data.ledger_key).toBe(`task_${requester.id}_${res.body.data.id}`);
      expect((await t.request('GET', `${P}/tasks/${res.body.data.id}`)).body.data.id).toBe(res.body.data.id);
    });

    it('given a missing field, then 400; an unknown task, then 404 `Task not found`', async () => {
      expect((await t.request('POST', `${P}/tasks`, { token: requester.token, body: { post_id: 'p' } })).status).toBe(400);
      const missing = await t.request('GET', `${P}/tasks/nope`);
      expect(missing.status).toBe(404);
      expect(missing.body.error).toBe('Task not found');
    });

    it('given someone else’s task or agent, then assigning is refused with the contract texts', async () => {
      const task = await newTask();
      const notRequester = await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: stranger.token, body: { assignee_id: stranger.id } });
      expect(notRequester.status).toBe(403);
      expect(notRequester.body.error).toBe('Only the task requester can assign this task');
      const foreign = await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id: foreignAgent.id } });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error).toBe("Cannot assign tasks to agents you don't own");
      const nobody = await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id: 'ghost' } });
      expect(nobody.status).toBe(404);
      expect(nobody.body.error).toBe('Assignee not found');
    });

    it('given an assigned task, then a stranger may not complete it and the assignee may', async () => {
      const task = await newTask();
      const assigned = await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id: agent.id } });
      expect(assigned.body.data).toMatchObject({ status: 'assigned', assignee_id: agent.id });
      const refused = await t.request('POST', `${P}/tasks/${task.id}/complete`, { token: stranger.token, body: { result: 'x' } });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe('Not authorized to complete this task');
      const done = await t.request('POST', `${P}/tasks/${task.id}/complete`, { token: agent.api_token, body: { result: 'summary' } });
      expect(done.status).toBe(200);
      expect(done.body.data).toMatchObject({ status: 'completed', result: 'summary' });
      expect(done.body.data.completed_at).toEqual(expect.any(String));
    });

    it('given concurrent completions of one task, then exactly one succeeds, the rest get 409, and karma counts it once', async () => {
      await settled(t);
      const before = (await t.request('GET', `${P}/agents/${agent.id}/evolution`)).body.data.completed_tasks;
      const task = await newTask();
      await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id: agent.id } });
      const results = await Promise.all([requester.token, agent.api_token, admin.token].map((token) => t.request('POST', `${P}/tasks/${task.id}/complete`, { token, body: {} })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
      await settled(t);
      expect((await t.request('GET', `${P}/agents/${agent.id}/evolution`)).body.data.completed_tasks).toBe(before + 1);
    });

    it('given concurrent assigns of one task, then each is applied in turn and the task ends assigned to one of them', async () => {
      const task = await newTask();
      const results = await Promise.all([agent.id, requester.id].map((assignee_id) => t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id } })));
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const final = (await t.request('GET', `${P}/tasks/${task.id}`)).body.data;
      expect([agent.id, requester.id]).toContain(final.assignee_id);
      expect(final.status).toBe('assigned');
    });

    it('given completed tasks, then the agent’s task_karma is 10 × completed + int(50 × average success rate) and its karma_score follows', async () => {
      const task = await newTask();
      await t.request('POST', `${P}/tasks/${task.id}/assign`, { token: requester.token, body: { assignee_id: agent.id } });
      await t.request('POST', `${P}/tasks/${task.id}/complete`, { token: requester.token, body: { success: false, result: 'gave up' } });
      await settled(t);
      const view = (await t.request('GET', `${P}/users/${requester.id}/agents`)).body.data.find((a: { id: string }) => a.id === agent.id);
      const completed = (await t.request('GET', `${P}/agents/${agent.id}/evolution`)).body.data.completed_tasks;
      const rate = completed / (completed + 1);
      expect(view.task_karma).toBe(10 * completed + Math.floor(50 * rate));
      expect(view.karma_score).toBe(view.task_karma);
      expect((await t.request('GET', `${P}/tasks/${task.id}`)).body.data.status).toBe('failed');
    });

    it('given tasks, then the list filters by status, mine, my_agents and assigned_to, newest first with meta', async () => {
      const mine = await t.request('GET', `${P}/tasks?mine=1&limit=2`, { token: requester.token });
      expect(mine.body.meta).toMatchObject({ limit: 2, offset: 0, has_more: true });
      expect(mine.body.data.every((task: { requester_id: string }) => task.requester_id === requester.id)).toBe(true);
      const agents = await t.request('GET', `${P}/tasks?my_agents=1&limit=100`, { token: requester.token });
      expect(agents.body.data.length).toBeGreaterThan(0);
      expect(agents.body.data.every((task: { assignee_id: string }) => task.assignee_id === agent.id)).toBe(true);
      const none = await t.request('GET', `${P}/tasks?my_agents=1`, { token: admin.token });
      expect(none.body.data).toEqual([]);
      const failed = await t.request('GET', `${P}/tasks?status=failed`);
      expect(failed.body.data.every((task: { status: string }) => task.status === 'failed')).toBe(true);
      const assigned = await t.request('GET', `${P}/tasks?assigned_to=${agent.id}&limit=100`);
      expect(assigned.body.meta.total).toBe(agents.body.meta.total);
      const anonymousMine = await t.request('GET', `${P}/tasks?mine=1`);
      expect(anonymousMine.body).toMatchObject({ data: [], meta: { total: 0 } });
      const times = (await t.request('GET', `${P}/tasks?limit=100`)).body.data.map((task: { created_at: string }) => task.created_at);
      expect([...times].sort().reverse()).toEqual(times);
      expect((await t.request('GET', `${P}/tasks?limit=x`)).status).toBe(400);
    });
  });

  describe('recipes', () => {
    let recipe: { id: string; post_id: string };

    it('given a recipe file named <prompt>_<flow>_recipe.json, when shared, then 201 with the recipe post and the parsed ids', async () => {
      const res = await t.request('POST', `${P}/recipes/share`, {
        token: requester.token,
        body: { recipe_file: '123_45_recipe.json', title: 'Weekly <digest>', description: 'how I do it', persona: 'editor' },
      });
      expect(res.status).toBe(201);
      expect(res.body.data.post).toMatchObject({ author_id: requester.id, title: 'Weekly &lt;digest&gt;', content_type: 'recipe', recipe_ref: '123_45_recipe.json' });
      expect(res.body.data.recipe).toMatchObject({ prompt_id: 123, flow_id: 45, fork_count: 0, persona: 'editor', post_id: res.body.data.post.id });
      recipe = res.body.data.recipe;
      const post = await t.request('GET', `${P}/posts/${res.body.data.post.id}`);
      expect(post.status).toBe(200);
      expect(post.body.data).toMatchObject({ author_id: requester.id, content_type: 'recipe', recipe_ref: '123_45_recipe.json', content: 'how I do it' });
    });

    it('given another file name, then prompt_id and flow_id are 0; a missing title is 400', async () => {
      const res = await t.request('POST', `${P}/recipes/share`, { token: requester.token, body: { recipe_file: 'notes.json', title: 'Plain' } });
      expect(res.body.data.recipe).toMatchObject({ prompt_id: 0, flow_id: 0 });
      expect((await t.request('POST', `${P}/recipes/share`, { token: requester.token, body: { recipe_file: 'a.json' } })).status).toBe(400);
    });

    it('given forks, then every call counts, and the lists put the most forked first', async () => {
      const forks = await Promise.all([requester.token, stranger.token, stranger.token].map((token) => t.request('POST', `${P}/recipes/${recipe.id}/fork`, { token })));
      expect(forks.map((f) => f.status)).toEqual([200, 200, 200]);
      expect(forks.map((f) => f.body.data.fork_count).sort()).toEqual([1, 2, 3]);
      expect(forks[0].body.data).toMatchObject({ forked: true, recipe_file: '123_45_recipe.json' });
      expect((await t.request('GET', `${P}/recipes/${recipe.id}`)).body.data.fork_count).toBe(3);
      const list = await t.request('GET', `${P}/recipes`);
      expect(list.body.data[0].id).toBe(recipe.id);
      expect(list.body.meta).toMatchObject({ limit: 25, offset: 0, has_more: false });
      const market = await t.request('GET', `/social/marketplace/recipes?limit=1`);
      expect(market.body.data.map((r: { id: string }) => r.id)).toEqual([recipe.id]);
    });

    it('given a recipe the sharer saved through /chat, when its file is shared, then the recipe names that saved recipe', async () => {
      const chat = await t.request('POST', '/chat', { token: requester.token, body: { prompt_id: '777', prompt: '1. what is 3 * 3\n2. reverse "abc"', autonomous: true } });
      expect(chat.body).toMatchObject({ recipe_saved: true });
      const shared = await t.request('POST', `${P}/recipes/share`, { token: requester.token, body: { recipe_file: '777_1_recipe.json', title: 'Mine' } });
      expect(shared.body.data.recipe).toMatchObject({ prompt_id: 777, chat_recipe_id: expect.any(String), chat_recipe_version: 1 });
      const other = await t.request('POST', `${P}/recipes/share`, { token: stranger.token, body: { recipe_file: '777_1_recipe.json', title: 'Not mine' } });
      expect(other.body.data.recipe).toMatchObject({ chat_recipe_id: null, chat_recipe_version: null });
      expect(shared.body.data.recipe).toEqual((await t.request('GET', `${P}/recipes/${shared.body.data.recipe.id}`)).body.data);
    });

    it('given an unknown recipe, then reading and forking are 404 `Recipe not found`', async () => {
      expect((await t.request('GET', `${P}/recipes/nope`)).body.error).toBe('Recipe not found');
      expect((await t.request('POST', `${P}/recipes/nope/fork`, { token: requester.token })).status).toBe(404);
    });
  });
});
