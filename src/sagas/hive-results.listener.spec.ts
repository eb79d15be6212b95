import { CommandBus, CommandHandlerNotFoundException, type ICommand } from '@nestjs/cqrs';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/config';
import type { MessageBus } from '../infrastructure/bus/message-bus.port';
import type { PlatformLifecycle } from '../infrastructure/platform-lifecycle';
import { RecordExpertAnswer } from '../modules/chat/chat.commands';
import { CompleteSubtask, FailSubtask } from '../modules/goals/goals.commands';
import { HiveResultsListener } from './hive-results.listener';

const base = { attempt: 1, origin_node: 'node-a', correlation_id: 'c', result: 'r', source: 'offline', model: 'offline', node_id: 'node-b' };
const subtaskResult = (status: string, origin = 'node-a') => ({ ...base, origin_node: origin, task_id: 'g1:s1:1', kind: 'subtask', goal_id: 'g1', subtask_id: 's1', status });
const expertResult = { ...base, task_id: 'run-1', kind: 'expert', run_id: 'run-1', user_id: 'u1', prompt_id: 'p1', status: 'completed' };

function listener(execute: (c: ICommand) => Promise<unknown>) {
  const commands = { execute } as unknown as CommandBus;
  return new HiveResultsListener({ nodeId: 'node-a', kafka: null } as unknown as AppConfig, {} as MessageBus, commands, {} as PlatformLifecycle);
}

describe('hive results listener', () => {
  it('routes sub-task results to the goal and expert results to the conversation, for this node only', async () => {
    const executed: ICommand[] = [];
    const l = listener(async (c) => executed.push(c));
    await l.handle(subtaskResult('completed'));
    await l.handle(subtaskResult('failed'));
    await l.handle(subtaskResult('completed', 'node-c'));
    await l.handle(expertResult);
    await l.handle({ nonsense: true });
    expect(executed.map((c) => c.constructor)).toEqual([CompleteSubtask, FailSubtask, RecordExpertAnswer]);
  });

  it('drops a result nobody in this process can take, and rethrows any other failure so the bus redelivers it', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await expect(listener(() => Promise.reject(new CommandHandlerNotFoundException('RecordExpertAnswer'))).handle(expertResult)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalled();
    await expect(listener(() => Promise.reject(new Error('store down'))).handle(subtaskResult('completed'))).rejects.toThrow('store down');
  });

  it('given a correlation-id header, when a result arrives, then the command carries it rather than the body one', async () => {
    const executed: CompleteSubtask[] = [];
    const l = listener(async (c) => executed.push(c as CompleteSubtask));
    await l.handle(subtaskResult('completed'), { 'correlation-id': 'from-header' });
    await l.handle(subtaskResult('completed'));
    expect(executed.map((c) => c.context.correlationId)).toEqual(['from-header', 'c']);
  });
});
