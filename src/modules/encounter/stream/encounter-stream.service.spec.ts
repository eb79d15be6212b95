import type { BusMessage, MessageBus } from '../../../infrastructure/bus/message-bus.port';
import type { AppConfig } from '../../../config/config';
import { EncounterStreamService, type StreamConnection } from './encounter-stream.service';
import type { StreamMessage } from './sse';

function service(bus: Partial<MessageBus> = {}, role: 'api' | 'worker' = 'api') {
  return new EncounterStreamService(
    { nodeId: 'node-1' } as AppConfig,
    role,
    {} as never,
    {} as never,
    bus as MessageBus,
    {} as never,
    {} as never,
  );
}

function connection() {
  const got: StreamMessage[] = [];
  let ended = false;
  const c: StreamConnection = { deliver: (m) => got.push(m), end: () => (ended = true) };
  return { c, got, ended: () => ended };
}

const busMessage = (user: string, id: number): BusMessage => ({
  topic: 'com.svc.encounter.match',
  partition: 0,
  offset: id,
  key: user,
  value: { id: String(id), topic: `com.svc.encounter.match.${user}`, payload: { id: 'match_1' }, at: 't' },
  headers: {},
  timestamp: 't',
});

describe('EncounterStreamService', () => {
  it('hands a message to every connection of the user it names, and to no one else', () => {
    const s = service();
    const a1 = connection();
    const a2 = connection();
    const b = connection();
    s.connect('ua', a1.c);
    const disconnectA2 = s.connect('ua', a2.c);
    s.connect('ub', b.c);
    s.dispatch(busMessage('ua', 5));
    disconnectA2();
    s.dispatch(busMessage('ua', 6));
    expect(a1.got.map((m) => m.position)).toEqual([5, 6]);
    expect(a2.got.map((m) => m.position)).toEqual([5]);
    expect(b.got).toEqual([]);
  });

  it('subscribes on its own group from the end, retrying without holding up the start, and ends streams on destroy', async () => {
    const calls: unknown[] = [];
    let attempts = 0;
    const stop = jest.fn(async () => undefined);
    const s = service({
      subscribe: async (options) => {
        calls.push(options);
        attempts += 1;
        if (attempts === 1) throw new Error('bus down');
        return { stop };
      },
    });
    jest.useFakeTimers();
    try {
      s.onApplicationBootstrap();
      await Promise.resolve();
      await jest.advanceTimersByTimeAsync(2500);
    } finally {
      jest.useRealTimers();
    }
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual({
      groupId: s.groupId,
      topics: ['com.svc.encounter.sighting', 'com.svc.encounter.swipe', 'com.svc.encounter.match', 'com.svc.encounter.icebreaker', 'com.svc.social'],
      fromBeginning: false,
    });
    expect(s.groupId).toMatch(/^encounter-stream-node-1-[0-9a-f]{12}$/);
    expect(service().groupId).not.toBe(s.groupId);
    const open = connection();
    s.connect('ua', open.c);
    await s.onModuleDestroy();
    expect(open.ended()).toBe(true);
    expect(stop).toHaveBeenCalled();
    expect(s.accepting).toBe(false);
  });

  it('does not consume in a worker process', () => {
    const subscribe = jest.fn();
    service({ subscribe }, 'worker').onApplicationBootstrap();
    expect(subscribe).not.toHaveBeenCalled();
  });
});
