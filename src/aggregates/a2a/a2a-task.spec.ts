import { deciderKit } from '../../../test/support/decider-kit';
import { a2aTaskDecider, type A2aTaskCommand } from './a2a-task';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const AT = NOW.toISOString();
const { given, history } = deciderKit(a2aTaskDecider, NOW);

const submit: A2aTaskCommand = { kind: 'submit', taskId: 't1', contextId: 'c1', userId: 'u1', agentId: 'recipe_1', promptId: 'p1', textChars: 5 };
const submitted = history(submit);
const working = history(submit, { kind: 'start' });

describe('an A2A task', () => {
  it('given nothing, when a message is submitted, then the task is submitted without its text', () =>
    given()
      .when(submit)
      .then({ type: 'A2aTaskSubmitted', data: { task_id: 't1', context_id: 'c1', user_id: 'u1', agent_id: 'recipe_1', prompt_id: 'p1', text_chars: 5, submitted_at: AT } }));

  it('given a submitted task, when the same id is submitted again, then nothing is recorded', () => given(...submitted).when(submit).thenNothing());

  it('given a submitted task, when the run starts, then it is working', () =>
    given(...submitted)
      .when({ kind: 'start' })
      .then({ type: 'A2aTaskStarted', data: { task_id: 't1', started_at: AT } }));

  it('given a working task, when the run answers, then it is completed with the answer', () =>
    expect(given(...working).when({ kind: 'complete', response: 'done' }).state()).toMatchObject({ status: 'completed' }));

  it('given a working task, when the run fails, then it is failed with the reason', () =>
    given(...working)
      .when({ kind: 'fail', error: 'budget exceeded' })
      .then({ type: 'A2aTaskFailed', data: { task_id: 't1', error: 'budget exceeded', failed_at: AT } }));

  it.each([
    ['submitted', submitted],
    ['working', working],
  ])('given a %s task, when canceled, then it is canceled', (_state, past) =>
    given(...past)
      .when({ kind: 'cancel', agentId: 'recipe_1' })
      .then({ type: 'A2aTaskCanceled', data: { task_id: 't1', canceled_at: AT } }));

  it('given a canceled task, when the run answers afterwards, then the task stays canceled', () =>
    given(...history(submit, { kind: 'start' }, { kind: 'cancel', agentId: 'recipe_1' }))
      .when({ kind: 'complete', response: 'late' })
      .thenNothing());

  it.each([
    ['completed', { kind: 'complete', response: 'done' } as const],
    ['failed', { kind: 'fail', error: 'x' } as const],
    ['canceled', { kind: 'cancel', agentId: 'recipe_1' } as const],
  ])('given a %s task, when canceled, then it is refused naming the state', (state, end) =>
    given(...history(submit, { kind: 'start' }, end))
      .when({ kind: 'cancel', agentId: 'recipe_1' })
      .thenRefused('conflict', `Cannot cancel task in state ${state}`));

  it('given a task of another agent, when canceled through this one, then it is not found', () =>
    given(...working).when({ kind: 'cancel', agentId: 'recipe_2' }).thenRefused('not_found'));

  it('given no task, when canceled, then it is not found', () => given().when({ kind: 'cancel', agentId: 'recipe_1' }).thenRefused('not_found'));
});
