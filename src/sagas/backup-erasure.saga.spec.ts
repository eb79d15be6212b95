import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { EraseUserBackups } from '../modules/sync/sync.commands';
import { BackupErasureSaga } from './backup-erasure.saga';

const recorded = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  streamId: 'user-u1',
  type,
  revision: 3,
  position: 9,
  data,
  recordedAt: 'x',
  metadata: { eventId: 'e9', correlationId: 'c9', causationId: null, actor: 'u1', nodeId: 'n', occurredAt: 'x', schemaVersion: 1 },
});

describe('BackupErasureSaga', () => {
  const saga = new BackupErasureSaga();

  it('given an anonymised user, then their backups are erased, caused by that event', () => {
    const [command] = saga.react(recorded('UserAnonymized', { user_id: 'u1', username: 'deleted_x', display_name: 'Deleted User', requested_by: 'u1', at: 'x' }));
    expect(command).toBeInstanceOf(EraseUserBackups);
    expect((command as EraseUserBackups).payload).toEqual({ userId: 'u1' });
    expect((command as EraseUserBackups).context).toMatchObject({ causationId: 'e9', correlationId: 'c9' });
  });

  it('given another event, then nothing', () => {
    expect(saga.eventTypes).toEqual(['UserAnonymized']);
  });
});
