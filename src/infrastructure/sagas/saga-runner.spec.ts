import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { eventually } from '../../../test/support/eventually';
import type { NewEvent, RecordedEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import type { ProcessManager } from './process-manager';
import { SAGA_CHECKPOINT, SagaRunner } from './saga-runner';

/** The command of the test process manager: note the deposit's event id. */
class NoteDeposit implements ICommand {
  constructor(readonly eventId: string) {}
}

/** A refusal for good, as the domain's DomainError is one. */
class Refused extends Error {}

const deposits: ProcessManager = {
  name: 'deposits',
  eventTypes: ['Deposited'],
  react: (event: RecordedEvent) => [new NoteDeposit(event.metadata.eventId)],
};

function deposited(): NewEvent {
  return {
    type: 'Deposited',
    data: {},
    metadata: { eventId: randomUUID(), correlationId: 'c', causationId: null, actor: 't', nodeId: 'n', occurredAt: new Date(0).toISOString(), schemaVersion: 1 },
  };
}

/** A command bus whose every execute waits for the test to settle it. */
class ControlledCommandBus {
  readonly calls: { eventId: string; resolve: () => void; reject: (error: unknown) => void }[] = [];
  /** settles every call as it arrives, with this outcome (null: leave them pending) */
  auto: ((eventId: string, attempt: number) => Error | null) | null = () => null;

  execute(command: ICommand): Promise<void> {
    const { eventId } = command as NoteDeposit;
    return new Promise<void>((resolve, reject) => {
      this.calls.push({ eventId, resolve, reject });
      if (!this.auto) return;
      const error = this.auto(eventId, this.attempts(eventId));
      if (error) reject(error);
      else resolve();
    });
  }

  attempts(eventId: string): number {
    return this.calls.filter((c) => c.eventId === eventId).length;
  }

  handled(): string[] {
    return [...new Set(this.calls.map((c) => c.eventId))];
  }
}

describe('SagaRunner', () => {
  let dir: string;
  let events: SqliteEventStore;
  let reads: EmbeddedReadStore;
  let commands: ControlledCommandBus;
  let runner: SagaRunner;

  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sagas-'));
    events = new SqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
    reads = new EmbeddedReadStore({ file: join(dir, 'read.db') });
    commands = new ControlledCommandBus();
  });
  afterEach(async () => {
    await runner?.stop();
    await reads.close();
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const start = async (registration: Partial<Parameters<SagaRunner['register']>[0]> = {}) => {
    runner = new SagaRunner(events, reads, commands, { retryDelayMs: 10 });
    runner.register({ processManagers: [deposits], isRefusal: (e) => e instanceof Refused, ...registration });
    await runner.start();
    return runner;
  };
  const checkpoint = () => reads.getCheckpoint(SAGA_CHECKPOINT);
  const appendDeposits = async (count: number) => {
    const appended = Array.from({ length: count }, deposited);
    const { position } = await events.append('account-1', appended, 'any');
    return { ids: appended.map((e) => e.metadata.eventId), position };
  };

  it('given recorded events, when their commands are still running, then the checkpoint waits for all of them', async () => {
    commands.auto = null;
    await start();
    const { ids, position } = await appendDeposits(3);
    await eventually('the three commands dispatched together', () => commands.calls.length === 3);
    expect(commands.handled()).toEqual(ids);

    commands.calls[0].resolve();
    commands.calls[2].resolve();
    // the batch is still awaiting its second command: its checkpoint cannot have moved
    expect(await checkpoint()).toBeNull();

    commands.calls[1].resolve();
    await eventually('the checkpoint after the batch', checkpoint, (p) => p === position);
    expect(runner.status()).toMatchObject({ position, commands: 3, refused: 0, failedBatches: 0 });
  });

  it('given a command that fails, then the batch is retried from the checkpoint and no event is skipped', async () => {
    const { ids, position } = await appendDeposits(3);
    commands.auto = (eventId, attempt) => (eventId === ids[1] && attempt === 1 ? new Error('store down') : null);
    await start();

    await eventually('the checkpoint after the batch', checkpoint, (p) => p === position);
    expect(commands.attempts(ids[1])).toBe(2);
    expect(commands.handled()).toEqual(ids);
    expect(runner.status()).toMatchObject({ failedBatches: 1 });
  });

  it('given a command that keeps failing, then the checkpoint stays before its event', async () => {
    const first = await appendDeposits(1);
    const { ids } = await appendDeposits(1);
    commands.auto = (eventId) => (eventId === ids[0] ? new Error('bug') : null);
    await start({ isRefusal: () => false });

    await eventually('three attempts of the failing command', () => commands.attempts(ids[0]) >= 3);
    await runner.stop(); // the batch in flight settles: nothing moves after this
    expect((await checkpoint()) ?? 0).toBeLessThanOrEqual(first.position);
  });

  it('given a command refused for good, then it counts as handled and the checkpoint moves on', async () => {
    const debug = jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    const { ids, position } = await appendDeposits(2);
    commands.auto = (eventId) => (eventId === ids[0] ? new Refused('already paid') : null);
    await start();

    await eventually('the checkpoint after the batch', checkpoint, (p) => p === position);
    expect(commands.attempts(ids[0])).toBe(1);
    expect(runner.status()).toMatchObject({ commands: 2, refused: 1, failedBatches: 0 });
    expect(debug).toHaveBeenCalledWith(expect.stringContaining('deposits on Deposited@1 → NoteDeposit: refused: already paid'));
  });

  it('given events of types no process manager handles, then they pass without a command', async () => {
    await start();
    const other = { ...deposited(), type: 'Withdrawn' };
    const { position } = await events.append('account-1', [other], 'any');
    await eventually('the checkpoint after the batch', checkpoint, (p) => p === position);
    expect(commands.calls).toEqual([]);
  });

  it('given no process manager, then it does not start and leaves the checkpoint alone', async () => {
    await appendDeposits(1);
    runner = new SagaRunner(events, reads, commands);
    await runner.start();
    expect(runner.status().position).toBe(0);
    expect(await checkpoint()).toBeNull();
  });

  it('given a restart, then it resumes from its checkpoint', async () => {
    const before = await appendDeposits(1);
    await start();
    await eventually('the first checkpoint', checkpoint, (p) => p === before.position);
    await runner.stop();

    const during = await appendDeposits(1);
    commands.calls.length = 0;
    await start();
    await eventually('the second checkpoint', checkpoint, (p) => p === during.position);
    expect(commands.handled()).toEqual(during.ids);
  });
});
