import { leftIn } from './decider';

type Entry = { status: 'none' } | { status: 'joined'; track: string };
const entryOf = (entry: Entry): Entry => entry;

describe('leftIn', () => {
  it('given a state in the expected status, then it is that state, narrowed', () => {
    expect(leftIn(entryOf({ status: 'joined', track: 'digital' }), 'joined').track).toBe('digital');
  });

  it('given a state in another status, then it throws: the decider broke its promise, the client did nothing wrong', () => {
    expect(() => leftIn(entryOf({ status: 'none' }), 'joined')).toThrow(new Error('expected the state to be joined, found none'));
  });
});
