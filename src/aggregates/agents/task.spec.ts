import { deciderKit } from '../../../test/support/decider-kit';
import { NOT_AUTHORIZED_TO_COMPLETE, NOT_YOUR_AGENT, ONLY_REQUESTER_ASSIGNS, type TaskCommand, taskDecider } from './task';

const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(taskDecider, now);
const create: TaskCommand = { kind: 'create', taskId: 't1', postId: 'p1', requesterId: 'req', description: 'do it' };
const requester = { id: 'req', isAdmin: false };
const admin = { id: 'adm', isAdmin: true };
const agent = { id: 'ag', userType: 'agent', ownerId: 'req' };
const assign: TaskCommand = { kind: 'assign', actor: requester, assignerName: 'rita', assignee: agent };

describe('task', () => {
  it('given nothing, when created, then it is open with the ledger key task_<requester>_<id>', () =>
    given()
      .when(create)
      .then({ type: 'TaskCreated', data: { task_id: 't1', post_id: 'p1', requester_id: 'req', task_description: 'do it', ledger_key: 'task_req_t1', created_at: at } }));

  it('given a blank description, then creating is refused', () => given().when({ ...create, description: '  ' }).thenRefused('invalid'));

  it('given an open task, when the requester assigns their agent, then its owner is the one notified', () =>
    given(...history(create))
      .when(assign)
      .then({ type: 'TaskAssigned', data: { task_id: 't1', requester_id: 'req', assignee_id: 'ag', assignee_type: 'agent', assigned_by: 'req', assigned_by_username: 'rita', notified_user_id: 'req', at } }));

  it('given a human assignee, then the assignee is the one notified', () =>
    expect(given(...history(create)).when({ kind: 'assign', actor: requester, assignerName: 'rita', assignee: { id: 'h', userType: 'human', ownerId: null } }).events()[0].data).toMatchObject({ notified_user_id: 'h' }));

  it('given another user, when they assign, then it is refused', () =>
    given(...history(create)).when({ ...assign, actor: { id: 'x', isAdmin: false } }).thenRefused('forbidden', ONLY_REQUESTER_ASSIGNS));

  it('given an agent of another owner, when the requester assigns it, then it is refused; an admin may', () => {
    const foreign = { id: 'fa', userType: 'agent', ownerId: 'other' };
    given(...history(create)).when({ kind: 'assign', actor: requester, assignerName: 'rita', assignee: foreign }).thenRefused('forbidden', NOT_YOUR_AGENT);
    expect(given(...history(create)).when({ kind: 'assign', actor: admin, assignerName: 'root', assignee: foreign }).events()).toHaveLength(1);
  });

  it('given an assigned task, when the assignee completes it, then it is completed', () =>
    expect(given(...history(create, assign)).when({ kind: 'finish', actor: { id: 'ag', isAdmin: false }, result: 'ok', success: true }).state()).toMatchObject({
      status: 'completed',
      result: 'ok',
      completedAt: at,
    }));

  it('given a stranger, when they complete, then it is refused', () =>
    given(...history(create, assign)).when({ kind: 'finish', actor: { id: 'x', isAdmin: false }, result: '', success: true }).thenRefused('forbidden', NOT_AUTHORIZED_TO_COMPLETE));

  it('given a completed task, when completed again (even by its assignee), then it is refused as a conflict', () => {
    const done = history(create, assign, { kind: 'finish', actor: requester, result: '', success: true });
    given(...done).when({ kind: 'finish', actor: { id: 'ag', isAdmin: false }, result: '', success: true }).thenRefused('conflict', 'Task is already completed');
    given(...done).when(assign).thenRefused('conflict');
  });

  it('given success false, then the task fails', () =>
    expect(given(...history(create, assign)).when({ kind: 'finish', actor: requester, result: 'no', success: false }).events()[0].type).toBe('TaskFailed'));

  it('given nothing, when assigning, then the task is not found', () => given().when(assign).thenRefused('not_found', 'Task not found'));
});
