/**
 * Thought experiments over HTTP (social-routes §17, §21.1, §21.4): every
 * route on a flat node (body ids without a token, the token's user with
 * one), the linked post and the rewards the saga makes, one vote per voter
 * under concurrent votes, the steward rule, evaluation through the goals
 * pipeline, the auto-evolve routes; and on a central node, that a write
 * without a token is 401.
 */
import { CommandBus } from '@nestjs/cqrs';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { ExperimentPublicationSaga } from '../../src/sagas/experiment-publication.saga';
import { settled, signUp, startTestApp, type SignedUpUser, type TestApp } from '../support/app';

jest.setTimeout(120_000);

const P = '/api/social/experiments';

describe('thought experiments over HTTP on a flat node', () => {
  let t: TestApp;
  let ann: SignedUpUser;
  let bob: SignedUpUser;

  beforeAll(async () => {
    t = await startTestApp({ SVC_ADMIN_USERS: 'expadmin' });
    [ann, bob] = await Promise.all([signUp(t, { prefix: 'expann' }), signUp(t, { prefix: 'expbob' })]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const body = (extra: Record<string, unknown> = {}) => ({ creator_id: ann.id, title: 'Faster feeds', hypothesis: 'A cache lowers latency', expected_outcome: 'p99 halves', ...extra });
  const create = async (extra: Record<string, unknown> = {}, token?: string) => {
    const res = await t.request('POST', P, { body: body(extra), token });
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const advance = (id: string, target?: string) => t.request('POST', `${P}/${id}/advance`, { body: target ? { target_status: target } : {} });
  const vote = (id: string, voterBody: Record<string, unknown>, token?: string) => t.request('POST', `${P}/${id}/vote`, { body: voterBody, token });

  describe('POST /experiments', () => {
    it('given a body creator_id and no token, then 201 proposed with the §17 timeline, and the linked post and the reward follow', async () => {
      const res = await t.request('POST', `/social/experiments`, { body: body({ intent_category: 'health', decision_type: 'majority', is_core_ip: true }) });
      expect(res.status).toBe(201);
      const e = res.body.data;
      expect(e).toMatchObject({ creator_id: ann.id, status: 'proposed', intent_category: 'health', decision_type: 'majority', decision_context: 'technical_improvement', experiment_type: 'traditional', is_core_ip: true, total_votes: 0 });
      const created = Date.parse(e.created_at);
      expect(Date.parse(e.voting_opens_at) - created).toBe(48 * 3600_000);
      expect(Date.parse(e.voting_closes_at) - created).toBe(120 * 3600_000);
      expect(Date.parse(e.evaluation_deadline) - created).toBe(144 * 3600_000);
      await settled(t);
      const post = await t.request('GET', `/api/social/posts/${e.post_id}`);
      expect(post.status).toBe(200);
      expect(post.body.data).toMatchObject({ author_id: ann.id, title: 'Faster feeds', content_type: 'thought_experiment', is_thought_experiment: true, hypothesis: 'A cache lowers latency', intent_category: 'health' });
      const transactions = await t.request('GET', '/api/social/resonance/transactions?limit=100', { token: ann.token });
      const rewards = transactions.body.data.filter((tx: { source_id: string; source_type: string }) => tx.source_id === e.id);
      expect(rewards.map((tx: { currency: string; amount: number; source_type: string }) => [tx.source_type, tx.currency, tx.amount]).sort()).toEqual(
        [
          ['experiment_proposed', 'pulse', 10],
          ['experiment_proposed', 'signal', 0.1],
          ['experiment_proposed', 'spark', 20],
          ['experiment_proposed', 'xp', 30],
        ].sort(),
      );
    });

    it('given the saga handles ExperimentProposed again (a redelivery), then still one post and one reward', async () => {
      const e = await create();
      await settled(t);
      const store = t.app.get<EventStore>(EVENT_STORE);
      const [proposed] = await store.readStream(`experiment-${e.id}`);
      const outcomes = await Promise.allSettled(t.app.get(ExperimentPublicationSaga).react(proposed).map((command) => t.app.get(CommandBus).execute(command)));
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseFulfilledResult<{ granted: boolean }>).value).toEqual({ granted: false });
      const postEvents = await store.readStream(`post-${e.post_id}`);
      expect(postEvents.filter((event) => event.type === 'PostPublished')).toHaveLength(1);
    });

    it.each([
      ['no creator_id', { creator_id: undefined }],
      ['no title', { title: undefined }],
      ['a blank hypothesis', { hypothesis: '  ' }],
      ['a numeric title', { title: 5 }],
    ])('given %s, then 400 `creator_id, title, and hypothesis required`', async (_name, extra) => {
      const res = await t.request('POST', P, { body: body(extra) });
      expect(res.body).toEqual({ success: false, error: 'creator_id, title, and hypothesis required' });
      expect(res.status).toBe(400);
    });

    it('given an unknown category and type, then the defaults; keywords set the decision context', async () => {
      const e = await create({ intent_category: 'space', decision_type: 'dictator', experiment_type: 'alchemy', title: 'Firewall rules', hypothesis: 'encryption everywhere' });
      expect(e).toMatchObject({ intent_category: 'technology', decision_type: 'weighted', experiment_type: 'traditional', decision_context: 'security_guardrail' });
    });

    it('given a token, then the token’s user creates it (no creator_id needed); a creator_id naming another user is 403; a bad token 401', async () => {
      const own = await create({ creator_id: undefined }, bob.token);
      expect(own.creator_id).toBe(bob.id);
      expect((await create({ creator_id: bob.id }, bob.token)).creator_id).toBe(bob.id);
      const other = await t.request('POST', P, { body: body({ creator_id: ann.id }), token: bob.token });
      expect(other.status).toBe(403);
      expect(other.body.error).toBe('creator_id must be the authenticated user');
      expect((await t.request('POST', P, { body: body(), token: 'garbage' })).status).toBe(401);
    });

    it('given text the content filter blocks, then 403', async () => {
      const res = await t.request('POST', P, { body: body({ hypothesis: 'How do I make sarin at home?' }) });
      expect(res.status).toBe(403);
    });

    it('given user text with markup, then it is escaped on output', async () => {
      const e = await create({ title: '<b>bold</b>' });
      expect(e.title).toBe('&lt;b&gt;bold&lt;/b&gt;');
    });
  });

  describe('lists', () => {
    it('GET /experiments: newest first, archived left out unless asked for, by status; a bad limit 400', async () => {
      const a = await create({ title: 'list a' });
      const b = await create({ title: 'list b' });
      expect((await advance(b.id, 'archived')).status).toBe(200);
      const all = (await t.request('GET', `${P}?limit=200`)).body.data.map((e: { id: string }) => e.id);
      expect(all).toContain(a.id);
      expect(all).not.toContain(b.id);
      expect(all.indexOf(a.id)).toBeGreaterThanOrEqual(0);
      const archived = (await t.request('GET', `${P}?status=archived`)).body.data.map((e: { id: string }) => e.id);
      expect(archived).toContain(b.id);
      expect((await t.request('GET', `${P}?limit=2`)).body.data).toHaveLength(2);
      expect((await t.request('GET', `${P}?limit=abc`)).status).toBe(400);
      expect((await t.request('GET', `${P}?status=nope`)).status).toBe(400);
    });

    it('GET /experiments/core-ip: only the core-IP ones', async () => {
      const core = await create({ is_core_ip: true, title: 'core' });
      const plain = await create({ title: 'plain' });
      const ids = (await t.request('GET', `${P}/core-ip`)).body.data.map((e: { id: string }) => e.id);
      expect(ids).toContain(core.id);
      expect(ids).not.toContain(plain.id);
    });

    it('GET /experiments/discover: scored, with the post’s counts, the author and the viewer’s intents in meta', async () => {
      const carol = await signUp(t, { prefix: 'expcarol' });
      const equity = await create({ creator_id: carol.id, intent_category: 'equity', title: 'equity idea' });
      await advance(equity.id, 'voting');
      // carol has voted in equity: her equity experiments rank with 3·ln(1+n)
      expect((await vote(equity.id, { voter_id: carol.id, vote_value: 1 })).status).toBe(200);
      await settled(t);
      const res = await t.request('GET', `${P}/discover?user_id=${carol.id}&intent_category=equity&limit=5`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toMatchObject({ limit: 5, offset: 0, user_intents: { equity: expect.any(Number) } });
      expect(res.body.meta.user_intents.equity).toBeGreaterThanOrEqual(2);
      const found = res.body.data.find((e: { id: string }) => e.id === equity.id);
      expect(found).toMatchObject({ view_count: expect.any(Number), comment_count: 0, upvotes: 0, downvotes: 0, author: { id: carol.id } });
      expect(found.discovery_score).toBeGreaterThan(3 * Math.log(3) + 3);
      const scores = res.body.data.map((e: { discovery_score: number }) => e.discovery_score);
      expect([...scores].sort((x, y) => y - x)).toEqual(scores);
      expect((await t.request('GET', `${P}/discover?offset=x`)).status).toBe(400);
      const asOther = await t.request('GET', `${P}/discover?user_id=${carol.id}`, { token: bob.token });
      expect(asOther.status).toBe(403);
    });
  });

  describe('one experiment', () => {
    it('GET /experiments/{id}, /metrics, /timeline, /votes: the record, counts and timeline; 404 `not_found` for an unknown id', async () => {
      const e = await create();
      const detail = await t.request('GET', `${P}/${e.id}`);
      expect(detail.body.data).toMatchObject({ id: e.id, votes: [], tally: { total_votes: 0, decision_recommendation: 'inconclusive', decision_context: 'technical_improvement' } });
      const metrics = await t.request('GET', `${P}/${e.id}/metrics`);
      expect(metrics.body.data).toMatchObject({ experiment_id: e.id, total_votes: 0, human_voters: 0, agent_voters: 0, vote_distribution: { support: 0, oppose: 0, neutral: 0 }, compute_nodes: 0 });
      const timeline = await t.request('GET', `${P}/${e.id}/timeline`);
      expect(timeline.body.data).toMatchObject({ experiment_id: e.id, status: 'proposed', is_voting_open: false, voting_opens_at: e.voting_opens_at });
      expect(timeline.body.data.time_until_voting).toBeGreaterThan(47 * 3600);
      expect((await t.request('GET', `${P}/${e.id}/votes`)).body).toEqual({ success: true, data: [] });
      for (const path of ['', '/metrics', '/timeline']) {
        const res = await t.request('GET', `${P}/no-such-experiment${path}`);
        expect([res.status, res.body]).toEqual([404, { success: false, error: 'not_found' }]);
      }
    });

    it('POST /contribute: every call counts a contributor, positive amounts fund it, no spark is taken', async () => {
      const e = await create();
      const before = (await t.request('GET', '/api/social/resonance/wallet', { token: bob.token })).body.data.spark;
      const first = await t.request('POST', `${P}/${e.id}/contribute`, { body: { spark_amount: 7 }, token: bob.token });
      expect(first.body.data).toMatchObject({ contributor_count: 1, funding_total: 7 });
      const second = await t.request('POST', `${P}/${e.id}/contribute`, { body: { user_id: bob.id, spark_amount: -4 } });
      expect(second.body.data).toMatchObject({ contributor_count: 2, funding_total: 7 });
      expect((await t.request('GET', '/api/social/resonance/wallet', { token: bob.token })).body.data.spark).toBe(before);
      expect((await t.request('POST', `${P}/${e.id}/contribute`, { body: {} })).body.error).toBe('user_id required');
      expect((await t.request('POST', `${P}/nope/contribute`, { body: { user_id: bob.id } })).status).toBe(404);
    });

    it('POST /advance: one step, or to a later target; `cannot_advance` backwards, to an unknown status and for an unknown id', async () => {
      const e = await create();
      expect((await advance(e.id)).body.data.status).toBe('discussing');
      expect((await advance(e.id, 'evaluating')).body.data.status).toBe('evaluating');
      for (const res of [await advance(e.id, 'voting'), await advance(e.id, 'nonsense'), await advance('no-such')]) {
        expect([res.status, res.body]).toEqual([400, { success: false, error: 'cannot_advance' }]);
      }
    });
  });

  describe('votes', () => {
    it('given a proposed experiment, then `experiment_not_in_voting_phase`; discussing, the vote counts; clamped; agents weigh less', async () => {
      const e = await create();
      const early = await vote(e.id, { voter_id: bob.id, vote_value: 1 });
      expect([early.status, early.body.error]).toEqual([400, 'experiment_not_in_voting_phase']);
      await advance(e.id);
      const res = await vote(e.id, { voter_id: bob.id, vote_value: 9, reasoning: 'good <idea>', suggestion: 'measure p50', voter_type: 'human', confidence: 0.1 });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ experiment_id: e.id, voter_id: bob.id, voter_type: 'human', vote_value: 2, confidence: 1, reasoning: 'good &lt;idea&gt;', constitutional_check: true });
      expect((await vote(e.id, { voter_id: 'bot-1', voter_type: 'agent', vote_value: -1, confidence: 0.5 })).status).toBe(200);
      const detail = (await t.request('GET', `${P}/${e.id}`)).body.data;
      expect(detail.total_votes).toBe(2);
      expect(detail.tally).toMatchObject({ total_votes: 2, human_votes: 1, agent_votes: 1, total_weight: 1.3, suggestions: [{ voter_id: bob.id, voter_type: 'human', suggestion: 'measure p50' }] });
      const metrics = (await t.request('GET', `${P}/${e.id}/metrics`)).body.data;
      expect(metrics).toMatchObject({ human_voters: 1, agent_voters: 1, vote_distribution: { support: 1, oppose: 1, neutral: 0 } });
      const votes = (await t.request('GET', `${P}/${e.id}/votes`)).body.data.map((v: { voter_id: string }) => v.voter_id);
      expect(votes).toEqual([bob.id, 'bot-1']);
    });

    it('given a token, then the token’s user votes with the account’s type; another voter_id is 403; no voter_id without a token is 400', async () => {
      const e = await create();
      await advance(e.id);
      const res = await vote(e.id, { vote_value: 1, voter_type: 'agent' }, ann.token);
      expect(res.body.data).toMatchObject({ voter_id: ann.id, voter_type: 'human' });
      expect((await vote(e.id, { voter_id: bob.id, vote_value: 1 }, ann.token)).status).toBe(403);
      expect((await vote(e.id, { vote_value: 1 })).body).toEqual({ success: false, error: 'voter_id required' });
      expect((await vote('no-such', { voter_id: bob.id })).status).toBe(404);
    });

    it('given a security experiment, then an agent is `voter_not_eligible`', async () => {
      const e = await create({ title: 'Kill switch', hypothesis: 'a firewall helps' });
      await advance(e.id, 'voting');
      const res = await vote(e.id, { voter_id: 'bot-2', voter_type: 'agent', vote_value: 1 });
      expect([res.status, res.body.error]).toEqual([400, 'voter_not_eligible']);
    });

    it('given 12 concurrent votes of one voter, then one vote and total_votes 1; concurrent votes of 8 voters count 8', async () => {
      const e = await create();
      await advance(e.id);
      const same = await Promise.all(Array.from({ length: 12 }, (_, i) => vote(e.id, { voter_id: bob.id, vote_value: (i % 5) - 2 })));
      expect(same.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect(new Set(same.map((r) => r.body.data.id)).size).toBe(1);
      const others = await Promise.all(Array.from({ length: 8 }, (_, i) => vote(e.id, { voter_id: `voter-${i}`, vote_value: 1 })));
      expect(others.every((r) => r.status === 200)).toBe(true);
      const detail = (await t.request('GET', `${P}/${e.id}`)).body.data;
      expect(detail.total_votes).toBe(9);
      expect(detail.votes.filter((v: { voter_id: string }) => v.voter_id === bob.id)).toHaveLength(1);
      const events = await t.app.get<EventStore>(EVENT_STORE).readStream(`experiment-${e.id}`);
      expect(events.filter((event) => event.type === 'ExperimentVoteCast')).toHaveLength(9);
      await settled(t);
      // experiment_voted is paid once per (experiment, voter) however often one votes
      const tx = (await t.request('GET', '/api/social/resonance/transactions?limit=100', { token: bob.token })).body.data;
      expect(tx.filter((x: { source_type: string; source_id: string; currency: string }) => x.source_type === 'experiment_voted' && x.source_id === `${e.id}:${bob.id}` && x.currency === 'spark')).toHaveLength(1);
    });
  });

  describe('evaluate and decide', () => {
    it('POST /evaluate: a goal through the goals pipeline, status evaluating; unknown id 400 `{success: false, reason}`', async () => {
      const e = await create({ experiment_type: 'software' });
      const res = await t.request('POST', `${P}/${e.id}/evaluate`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, goal_id: expect.any(String), experiment_type: 'software', iteration_strategy: 'autoresearch' });
      const goal = await t.request('GET', `/goals/${res.body.goal_id}`, { token: ann.token });
      expect(goal.status).toBe(200);
      const after = (await t.request('GET', `${P}/${e.id}`)).body.data;
      expect(after).toMatchObject({ status: 'evaluating', evaluation_goal_id: res.body.goal_id });
      const unknown = await t.request('POST', `${P}/no-such/evaluate`);
      expect([unknown.status, unknown.body]).toEqual([400, { success: false, reason: 'not_found', error: 'not_found' }]);
    });

    it('POST /decide: `steward_vote_required` on a security context until the steward votes, then decided with the tally', async () => {
      const e = await create({ title: 'Rotate the master key', hypothesis: 'encryption at rest' });
      await advance(e.id, 'voting');
      await vote(e.id, { voter_id: bob.id, vote_value: 2 });
      const refused = await t.request('POST', `${P}/${e.id}/decide`, { body: { decision: 'adopt' } });
      expect([refused.status, refused.body.error]).toEqual([400, 'steward_vote_required']);
      expect((await vote(e.id, { voter_id: 'steward', vote_value: 1 })).status).toBe(200);
      const decided = await t.request('POST', `${P}/${e.id}/decide`, { body: { decision: 'adopt' } });
      expect(decided.status).toBe(200);
      expect(decided.body.data).toMatchObject({ status: 'decided', decision_outcome: 'adopt', decision_rationale: { agent_evaluations: [], tally: { total_votes: 2, decision_recommendation: 'approve' } } });
      expect((await t.request('POST', `${P}/${e.id}/decide`, { body: {} })).body.error).toBe('decision required');
      expect((await t.request('POST', `${P}/no-such/decide`, { body: { decision: 'x' } })).status).toBe(404);
    });

    it('given a token, then the lifecycle routes are the creator’s or a moderator’s', async () => {
      const e = await create();
      expect((await t.request('POST', `${P}/${e.id}/advance`, { body: {}, token: bob.token })).status).toBe(403);
      expect((await t.request('POST', `${P}/${e.id}/decide`, { body: { decision: 'x' }, token: bob.token })).status).toBe(403);
      expect((await t.request('POST', `${P}/${e.id}/evaluate`, { token: bob.token })).status).toBe(403);
      expect((await t.request('POST', `${P}/${e.id}/advance`, { body: {}, token: ann.token })).status).toBe(200);
      const admin = await signUp(t, { username: 'expadmin' });
      expect((await t.request('POST', `${P}/${e.id}/decide`, { body: { decision: 'x' }, token: admin.token })).status).toBe(200);
    });
  });

  describe('auto-evolve', () => {
    it('GET /auto-evolve/status: not started here; POST /auto-evolve: 409', async () => {
      const status = await t.request('GET', `${P}/auto-evolve/status`);
      expect(status.body).toMatchObject({ started: false, status: 'not_started', paused_experiments: expect.any(Number) });
      const run = await t.request('POST', `${P}/auto-evolve`, { body: { user_id: ann.id, max_experiments: 3 } });
      expect([run.status, run.body]).toEqual([409, { success: false, error: 'auto-evolve is not started on this node' }]);
      expect((await t.request('POST', `${P}/auto-evolve`, { body: { max_experiments: 0 } })).status).toBe(400);
    });

    it('POST /pause-evolve, /resume-evolve: the owner only (403 otherwise), recorded and counted by the status', async () => {
      const e = await create();
      const before = (await t.request('GET', `${P}/auto-evolve/status`)).body.paused_experiments;
      expect((await t.request('POST', `${P}/${e.id}/pause-evolve`, { body: { user_id: bob.id } })).status).toBe(403);
      expect((await t.request('POST', `${P}/${e.id}/pause-evolve`, { body: {} })).body.error).toBe('user_id required');
      expect((await t.request('POST', `${P}/no-such/pause-evolve`, { body: { user_id: ann.id } })).status).toBe(404);
      const paused = await t.request('POST', `${P}/${e.id}/pause-evolve`, { body: { user_id: ann.id } });
      expect(paused.body).toEqual({ success: true, experiment_id: e.id, evolution_paused: true });
      expect((await t.request('GET', `${P}/auto-evolve/status`)).body.paused_experiments).toBe(before + 1);
      const resumed = await t.request('POST', `${P}/${e.id}/resume-evolve`, { token: ann.token, body: {} });
      expect(resumed.body).toEqual({ success: true, experiment_id: e.id, evolution_paused: false });
    });
  });
});

describe('thought experiments on a central node', () => {
  let t: TestApp;
  let ann: SignedUpUser;

  beforeAll(async () => {
    t = await startTestApp({ SVC_NODE_TIER: 'central' });
    ann = await signUp(t, { prefix: 'expcentral' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('given no token, then every write is 401 whatever the body names; with a token it acts as the token’s user', async () => {
    const created = await t.request('POST', P, { body: { creator_id: ann.id, title: 'T', hypothesis: 'H' } });
    expect(created.status).toBe(401);
    const own = await t.request('POST', P, { body: { title: 'T', hypothesis: 'H' }, token: ann.token });
    expect(own.status).toBe(201);
    const id = own.body.data.id;
    for (const [path, body] of [
      ['/advance', {}],
      ['/contribute', { user_id: ann.id }],
      ['/vote', { voter_id: ann.id }],
      ['/evaluate', {}],
      ['/decide', { decision: 'x' }],
      ['/pause-evolve', { user_id: ann.id }],
      ['/resume-evolve', { user_id: ann.id }],
    ] as const) {
      expect([path, (await t.request('POST', `${P}/${id}${path}`, { body })).status]).toEqual([path, 401]);
    }
    expect((await t.request('POST', `${P}/auto-evolve`, { body: { user_id: ann.id } })).status).toBe(401);
    expect((await t.request('POST', `${P}/${id}/advance`, { body: {}, token: ann.token })).status).toBe(200);
    expect((await t.request('POST', `${P}/${id}/vote`, { body: { vote_value: 1 }, token: ann.token })).body.data.voter_id).toBe(ann.id);
  });

  it('given no token, then the reads stay open and discover ignores user_id', async () => {
    expect((await t.request('GET', P)).status).toBe(200);
    const discover = await t.request('GET', `${P}/discover?user_id=${ann.id}`);
    expect(discover.status).toBe(200);
    expect(discover.body.meta.user_intents).toEqual({});
  });
});
