import { recorded } from '../../../test/support/projection-kit';
import { AGENT_NOTIFICATION_RULES } from './notifications.agents.handlers';

const assigned = (assignee: string, notified: string) =>
  recorded('TaskAssigned', {
    task_id: 't1',
    requester_id: 'req',
    assignee_id: assignee,
    assignee_type: assignee === 'agent' ? 'agent' : 'human',
    assigned_by: 'req',
    assigned_by_username: 'rita',
    notified_user_id: notified,
    at: 't',
  });

describe('task notifications', () => {
  it('given a human assignee, then they are told they were assigned a task', () =>
    expect(AGENT_NOTIFICATION_RULES.TaskAssigned(assigned('h1', 'h1'))).toEqual([
      { user_id: 'h1', type: 'task_assigned', source_user_id: 'req', source_username: 'rita', target_type: 'task', target_id: 't1', message: 'rita assigned you a task' },
    ]));

  it('given an agent assignee, then its owner is told', () =>
    expect(AGENT_NOTIFICATION_RULES.TaskAssigned(assigned('agent', 'owner'))[0]).toMatchObject({ user_id: 'owner', message: 'rita assigned a task to your agent' }));
});
