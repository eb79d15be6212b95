import type { RecordedEvent } from '../event-store/event-store.port';
import { UpcasterRegistry } from './upcasters';

function recorded(type: string, schemaVersion: number, data: Record<string, unknown>): RecordedEvent {
  return {
    streamId: 'user-1',
    type,
    revision: 0,
    position: 1,
    data,
    recordedAt: '2026-01-01T00:00:00.000Z',
    metadata: {
      eventId: 'e1',
      correlationId: 'c1',
      causationId: null,
      actor: 'u1',
      nodeId: 'n1',
      occurredAt: '2026-01-01T00:00:00.000Z',
      schemaVersion,
    },
  };
}

describe('UpcasterRegistry', () => {
  it('given no upcasters, when reading, then the event is returned unchanged at version 1', () => {
    const registry = new UpcasterRegistry();
    const event = recorded('UserRegistered', 1, { name: 'a' });
    expect(registry.upcast(event)).toBe(event);
    expect(registry.currentVersion('UserRegistered')).toBe(1);
  });

  it('given two steps, when reading a version-1 event, then both apply in order and the version is 3', () => {
    const registry = new UpcasterRegistry();
    registry.register('UserRegistered', 1, (d) => ({ ...d, display_name: d.name }));
    registry.register('UserRegistered', 2, (d) => ({ ...d, role: 'user' }));
    const upcast = registry.upcast(recorded('UserRegistered', 1, { name: 'a' }));
    expect(upcast.data).toEqual({ name: 'a', display_name: 'a', role: 'user' });
    expect(upcast.metadata.schemaVersion).toBe(3);
  });

  it('given a current-version event, when reading, then no upcaster runs', () => {
    const registry = new UpcasterRegistry();
    const step = jest.fn((d) => d);
    registry.register('UserRegistered', 1, step);
    registry.upcast(recorded('UserRegistered', 2, {}));
    expect(step).not.toHaveBeenCalled();
  });

  it('given a gap in the chain, when reading, then it fails loudly instead of guessing', () => {
    const registry = new UpcasterRegistry();
    registry.register('UserRegistered', 2, (d) => d);
    expect(() => registry.upcast(recorded('UserRegistered', 1, {}))).toThrow(/No upcaster/);
  });

  it('given the same step twice, when registering, then it is refused', () => {
    const registry = new UpcasterRegistry();
    registry.register('UserRegistered', 1, (d) => d);
    expect(() => registry.register('UserRegistered', 1, (d) => d)).toThrow(/already registered/);
  });
});
