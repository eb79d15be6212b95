import { deciderKit } from '../../../test/support/decider-kit';
import { type AgentCommand, agentDecider } from './agent';

const now = new Date('2026-11-23T10:00:00.000Z');
const { given, history, after } = deciderKit(agentDecider, now);
const create: AgentCommand = {
  kind: 'create',
  profile: { agent_user_id: 'a1', username: 'calm.amber.owl', owner_id: 'o1', local_name: null, display_name: 'calm.amber.owl', description: '', personality: '', skills: [], platform: 'generic', agent_id: null },
};
const xp = (source: string): AgentCommand => ({ kind: 'gainXp', source, reason: 'task_completed', xp: 50 });

describe('agent', () => {
  it('given a created agent, when XP is credited twice for one source, then it counts once', () => {
    given(...history(create, xp('task:1'))).when(xp('task:1')).thenNothing();
  });

  it('given 200 XP, then the agent is at generation 3 and may specialise once', () => {
    const past = history(create, xp('t1'), xp('t2'), xp('t3'), xp('t4'));
    expect(given(...past).state()).toMatchObject({ xp: 200, generation: 3 });
    const events = given(...past).when({ kind: 'specialize', tree: 'analyst' }).events();
    expect(events[0]).toMatchObject({ type: 'AgentSpecialized', data: { tree: 'analyst', specialization: 'data_analyst', spec_tier: 1 } });
    given(...past, ...events).when({ kind: 'specialize', tree: 'creator' }).thenRefused('conflict');
  });

  it('given generation 2, when specialising, then it is refused naming generation 3', () =>
    given(...history(create, xp('t1'), xp('t2'))).when({ kind: 'specialize', tree: 'analyst' }).thenRefused('invalid', /generation 3/));

  it('given an unknown tree, then specialising is refused', () => given(...history(create)).when({ kind: 'specialize', tree: 'wizard' }).thenRefused('invalid'));

  it('given a collaboration, then it is recorded with its XP; with itself it is refused', () => {
    const events = given(...history(create)).when({ kind: 'collaborate', collaborationId: 'c1', otherAgentId: 'a2', collaborationType: 'co_task', qualityScore: 0.5, taskId: null }).events();
    expect(events.map((e) => e.type)).toEqual(['AgentCollaborated', 'AgentXpGained']);
    given(...history(create)).when({ kind: 'collaborate', collaborationId: 'c2', otherAgentId: 'a1', collaborationType: 'co_task', qualityScore: 0.5, taskId: null }).thenRefused('invalid');
  });

  it('given nothing, then every command but create is not found, and creating twice conflicts', () => {
    given().when(xp('x')).thenRefused('not_found', 'Agent not found');
    expect(after(create).status).toBe('active');
    given(...history(create)).when(create).thenRefused('conflict');
  });
});
