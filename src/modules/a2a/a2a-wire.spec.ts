import { DomainError } from '../../aggregates/shared/domain-error';
import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { JsonRpcError, readRpcCall, readSendParams, readTaskId, RPC, RPC_REQUEST_SCHEMA, sendResult, getResult, type TaskView } from './a2a-wire';

const task: TaskView = { id: 't1', contextId: 'c1', state: 'completed', timestamp: '2026-04-10T00:00:00.000Z', content: 'done', error: null };

describe('the A2A wire', () => {
  it('given the request schema, then the envelope reader accepts exactly what it shows', () => {
    const reader = (body: unknown) => {
      try {
        return readRpcCall(body);
      } catch (error) {
        // what the schema shows is the envelope: an envelope refusal is what a schema refusal means
        if (error instanceof JsonRpcError && error.httpStatus === 400) throw new DomainError('invalid', error.message);
        if (error instanceof JsonRpcError && error.code === RPC.invalidParams) throw new DomainError('invalid', error.message);
        throw error;
      }
    };
    expectReaderAgreesWithSchema(RPC_REQUEST_SCHEMA, reader, { valid: { jsonrpc: '2.0', id: 'r1', method: 'message/send', params: {} }, candidates: { method: ['tasks/get', 'SendMessage', 'nope'] } });
  });

  it.each([
    [{ message: { parts: [{ type: 'text', text: 'x' }] } }, 'seed'],
    [{ message: { kind: 'message', parts: [{ kind: 'text', text: 'x' }] } }, 'v03'],
  ])('given message/send with %j, then the %s dialect', (params, dialect) => {
    expect(readRpcCall({ jsonrpc: '2.0', id: 1, method: 'message/send', params }).dialect).toBe(dialect);
  });

  it('given an unknown method, then −32601 with HTTP 400', () => {
    expect(() => readRpcCall({ jsonrpc: '2.0', id: 1, method: 'x' })).toThrow(expect.objectContaining({ code: -32601, httpStatus: 400 }));
  });

  it('given parts of any spelling, then their texts joined; an id with a slash is refused', () => {
    expect(readSendParams({ message: { messageId: 'm1', parts: [{ type: 'text', text: 'a' }, { kind: 'text', text: 'b' }, { text: 'c' }, { kind: 'file' }] } })).toEqual({ taskId: 'm1', contextId: null, text: 'a\nb\nc' });
    expect(() => readSendParams({ message: { messageId: 'a/b', parts: [{ text: 'x' }] } })).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => readSendParams({ message: { parts: [] } })).toThrow('message must hold a text part');
  });

  it('given get params of the seed or of A2A, then the task id', () => {
    expect(readTaskId({ taskId: 't1' })).toBe('t1');
    expect(readTaskId({ id: 't1' })).toBe('t1');
  });

  it('given a completed task, then each dialect its own shape', () => {
    expect(sendResult('seed', task)).toEqual({ id: 't1', contextId: 'c1', status: 'completed', artifacts: [{ parts: [{ type: 'text', text: 'done' }] }] });
    expect(sendResult('v1', task)).toMatchObject({ task: { id: 't1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ parts: [{ text: 'done' }] }] } });
    expect(getResult('v03', task)).toMatchObject({ kind: 'task', status: { state: 'completed' }, artifacts: [{ parts: [{ kind: 'text', text: 'done' }] }] });
    expect(getResult('seed', task)).toEqual({ id: 't1', contextId: 'c1', state: 'completed', timestamp: task.timestamp, content: 'done' });
  });
});
