import type { StreamMessage } from './sse';
import { INBOX_PAGE, StreamSession, type StreamSessionPorts } from './stream-session';

const msg = (position: number, topic: StreamMessage['topic'] = 'com.svc.encounter.match'): StreamMessage => ({
  position,
  topic,
  userTopic: `${topic}.u1`,
  payload: { n: position },
  at: '2026-04-10T00:00:00.000Z',
});

/** A fake connection and inbox: `inbox` is what the read model holds, `sent` the ids written. */
function harness(options: { inbox?: StreamMessage[]; inboxReached?: boolean } = {}) {
  const inbox = options.inbox ?? [];
  const sent: number[] = [];
  const chunks: string[] = [];
  let open = true;
  const ports: StreamSessionPorts = {
    write: async (chunk) => {
      if (!open) return false;
      chunks.push(chunk);
      const id = /^id: (\d+)$/m.exec(chunk);
      if (id) sent.push(Number(id[1]));
      return true;
    },
    readInbox: async (after, limit) => inbox.filter((m) => m.position > after).sort((a, b) => a.position - b.position).slice(0, limit),
    waitForInbox: async () => options.inboxReached ?? true,
  };
  return { ports, inbox, sent, chunks, disconnect: () => (open = false) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StreamSession', () => {
  it('given a resume position, then it backfills the inbox after it, in order', async () => {
    const h = harness({ inbox: [msg(9), msg(3), msg(5), msg(7)] });
    const session = new StreamSession(h.ports, 4);
    await session.start();
    expect(h.sent).toEqual([5, 7, 9]);
    expect(session.lastSentPosition).toBe(9);
  });

  it('given more than a page in the inbox, then it pages through all of it', async () => {
    const h = harness({ inbox: Array.from({ length: INBOX_PAGE * 2 + 3 }, (_, i) => msg(i + 1)) });
    await new StreamSession(h.ports, 0).start();
    expect(h.sent).toHaveLength(INBOX_PAGE * 2 + 3);
    expect(h.sent[h.sent.length - 1]).toBe(INBOX_PAGE * 2 + 3);
  });

  it('given live messages out of order across topics, then the inbox puts them back in log order', async () => {
    const h = harness();
    const session = new StreamSession(h.ports, 10);
    h.inbox.push(msg(11, 'com.svc.encounter.swipe'), msg(12));
    session.live(msg(12)); // the match topic delivered first
    session.live(msg(11, 'com.svc.encounter.swipe'));
    await session.heartbeat();
    expect(h.sent).toEqual([11, 12]);
  });

  it('given the same message from the bus, the poll and the backfill, then it is sent once', async () => {
    const h = harness({ inbox: [msg(21)] });
    const session = new StreamSession(h.ports, 20);
    session.live(msg(21));
    await session.start();
    session.live(msg(21));
    await session.heartbeat();
    await session.heartbeat();
    expect(h.sent).toEqual([21]);
  });

  it('never sends a position at or below the start (messages from before the connection)', async () => {
    const h = harness({ inbox: [msg(1), msg(2)] });
    const session = new StreamSession(h.ports, 2);
    session.live(msg(2));
    await session.start();
    expect(h.sent).toEqual([]);
  });

  it('given an inbox that lags behind the bus, then the bus copy is sent after the bounded wait', async () => {
    const h = harness({ inboxReached: false });
    const session = new StreamSession(h.ports, 0);
    session.live(msg(31));
    await session.heartbeat();
    expect(h.sent).toEqual([31]);
    h.inbox.push(msg(31)); // the inbox catches up later: no repeat
    await session.heartbeat();
    expect(h.sent).toEqual([31]);
  });

  it('given a failing inbox read, then live messages still go out', async () => {
    const h = harness();
    const errors: unknown[] = [];
    const session = new StreamSession({ ...h.ports, readInbox: () => Promise.reject(new Error('down')), onError: (e) => errors.push(e) }, 0);
    session.live(msg(41));
    session.live(msg(40));
    await session.heartbeat();
    expect(h.sent).toEqual([40, 41]);
    expect(errors.length).toBeGreaterThan(0);
  });

  it('writes a heartbeat comment and polls the inbox on each beat', async () => {
    const h = harness();
    const session = new StreamSession(h.ports, 50);
    await session.heartbeat();
    h.inbox.push(msg(51));
    await session.heartbeat();
    expect(h.chunks.filter((c) => c === ': heartbeat\n\n')).toHaveLength(2);
    expect(h.sent).toEqual([51]);
  });

  it('once the connection is gone, then it stops writing and closes', async () => {
    const h = harness();
    const session = new StreamSession(h.ports, 0);
    h.disconnect();
    session.live(msg(61));
    await settle();
    await session.heartbeat();
    expect(session.isClosed).toBe(true);
    expect(h.sent).toEqual([]);
  });
});
