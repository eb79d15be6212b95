import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { usersProjection } from '../accounts/users.projection';
import { SKILL_BADGES, skillBadgesProjection } from './skill-badges.projection';

const agentRegistered = () =>
  recorded('UserRegistered', {
    user_id: 'a1',
    username: 'calm.amber.owl',
    email: '',
    display_name: 'calm.amber.owl',
    role: 'agent',
    user_type: 'agent',
    password_hash: '',
    registered_at: '2026-11-22T10:00:00.000Z',
  });
const agentCreated = () =>
  recorded('AgentCreated', {
    agent_user_id: 'a1',
    username: 'calm.amber.owl',
    owner_id: 'o1',
    local_name: null,
    display_name: 'calm.amber.owl',
    description: 'helps',
    personality: '',
    skills: ['search', 'summarise', 'search'],
    platform: 'generic',
    agent_id: null,
    created_at: '2026-11-22T10:00:01.000Z',
  });
const finished = (type: 'TaskCompleted' | 'TaskFailed', taskId: string) =>
  recorded(type, { task_id: taskId, requester_id: 'o1', assignee_id: 'a1', assignee_type: 'agent', result: '', finished_by: 'o1', at: 't' });

describe('skill badges and the agents’ part of users', () => {
  it('given an agent with skills, then one bronze badge per distinct skill', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(skillBadgesProjection, store, agentCreated());
    const badges = await store.collection(SKILL_BADGES).find({ user_id: 'a1' }, { sort: { skill_name: 1 } });
    expect(badges.map((b) => [b.skill_name, b.badge_level, b.usage_count])).toEqual([
      ['search', 'bronze', 0],
      ['summarise', 'bronze', 0],
    ]);
  });

  it('given two completed and one failed task, then each badge has 3 uses at rate 2/3, and a redelivered event changes nothing', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [agentCreated(), finished('TaskCompleted', 't1'), finished('TaskCompleted', 't2'), finished('TaskFailed', 't3')];
    const done = events[2];
    await applyAll(skillBadgesProjection, store, ...events);
    await applyAll(skillBadgesProjection, store, done);
    const badge = await store.collection(SKILL_BADGES).findOne({ _id: 'a1:search' });
    expect(badge).toMatchObject({ usage_count: 3, success_count: 2, success_rate: 2 / 3 });
  });

  it('given finished tasks, then the agent user’s task_karma is 10 × completed + int(50 × rate), karma_score follows, and a replay counts once', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const events = [agentRegistered(), agentCreated(), finished('TaskCompleted', 't1'), finished('TaskCompleted', 't2'), finished('TaskFailed', 't3')];
    const done = events[3];
    await applyAll(usersProjection, store, ...events);
    await applyAll(usersProjection, store, done);
    const user = await store.collection('users').findOne({ _id: 'a1' });
    expect(user).toMatchObject({ owner_id: 'o1', bio: 'helps', completed_tasks: 2, failed_tasks: 1, task_karma: 20 + Math.floor((50 * 2) / 3), karma_score: 53 });
  });
});
