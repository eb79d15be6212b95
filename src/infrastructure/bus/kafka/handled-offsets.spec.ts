/**
 * HandledOffsets without a broker: a fake of the three kafkajs batch calls
 * it uses, whose commits resolve when the test says so. Its use against a
 * real broker is in kafka-bus.spec.ts ("KafkaBus offset commits").
 */
import type { OffsetsByTopicPartition } from 'kafkajs';
import { type CommitPayload, HandledOffsets } from './handled-offsets';

interface PendingCommit {
  offset: string | null;
  succeed: () => void;
  fail: (error: Error) => void;
}

/** kafkajs's side: what was resolved, and the commits started (each pending until settled here). */
function fakeBatch() {
  const resolved: string[] = [];
  const commits: PendingCommit[] = [];
  const payload: CommitPayload = {
    resolveOffset: (offset) => {
      resolved.push(offset);
    },
    uncommittedOffsets: (): OffsetsByTopicPartition => ({
      topics: [{ topic: 't', partitions: [{ partition: 0, offset: resolved.at(-1) ?? '-1' }] }],
    }),
    commitOffsetsIfNecessary: (offsets?: OffsetsByTopicPartition) =>
      new Promise<void>((resolve, reject) => {
        commits.push({ offset: offsets?.topics[0].partitions[0].offset ?? null, succeed: resolve, fail: reject });
      }),
  };
  return { payload, resolved, commits };
}

/** Lets the promise callbacks run. */
const settleCallbacks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('HandledOffsets', () => {
  let time = 1_000;
  const clock = () => time;
  beforeEach(() => {
    time = 1_000;
  });

  it('given fewer handled messages than the threshold, when the batch settles, then only the last handled offset is resolved', async () => {
    const { payload, resolved, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 3, 250, clock);

    offsets.handled('10');
    offsets.handled('11');
    expect(resolved).toEqual([]);
    await offsets.settle();

    expect(resolved).toEqual(['11']);
    expect(commits).toEqual([]); // kafkajs commits it after the batch
  });

  it('given the threshold reached, when the next message is handled, then it does not wait for the commit of what came before', async () => {
    const { payload, resolved, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 2, 250, clock);

    offsets.handled('10');
    offsets.handled('11');
    offsets.handled('12');

    expect(resolved).toEqual(['11']);
    expect(commits.map((commit) => commit.offset)).toEqual(['11']);
  });

  it('given a commit in flight when the next one becomes due, when the first is done, then the next starts at once with everything handled', async () => {
    const { payload, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 2, 250, clock);
    ['10', '11', '12', '13', '14'].forEach((offset) => offsets.handled(offset));
    expect(commits.map((commit) => commit.offset)).toEqual(['11']);

    commits[0].succeed();
    await settleCallbacks();

    expect(commits.map((commit) => commit.offset)).toEqual(['11', '14']);
  });

  it('given the interval passed since the last commit, when a message is handled, then a commit starts below the threshold', () => {
    const { payload, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 500, 250, clock);
    offsets.handled('10');
    time += 250;

    offsets.handled('11');

    expect(commits.map((commit) => commit.offset)).toEqual(['11']);
  });

  it('given a commit in flight, when the batch settles, then it resolves the rest and waits for that commit', async () => {
    const { payload, resolved, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 1, 250, clock);
    offsets.handled('10');
    offsets.handled('11');
    let settled = false;

    const settling = offsets.settle().then(() => (settled = true));
    await settleCallbacks();
    expect(settled).toBe(false);
    expect(resolved).toEqual(['10', '11']);
    commits[0].succeed();
    await settling;

    expect(commits.map((commit) => commit.offset)).toEqual(['10']); // no commit starts once settling
  });

  it('given a commit that fails, when the batch settles, then the failure is rethrown as an awaited commit would have', async () => {
    const { payload, commits } = fakeBatch();
    const offsets = new HandledOffsets(payload, 1, 250, clock);
    offsets.handled('10');

    commits[0].fail(new Error('rebalance in progress'));
    await settleCallbacks();
    expect(offsets.failed).toBe(true);
    await offsets.settle();

    expect(() => offsets.throwIfFailed()).toThrow('rebalance in progress');
  });
});
