import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Command, CommandHandler, CqrsModule, EventBus, type ICommandHandler, type IEvent, Saga } from '@nestjs/cqrs';
import { map, type Observable } from 'rxjs';
import type { NewEvent } from '../event-store/event-store.port';
import { SqliteEventStore } from '../event-store/sqlite/sqlite-event-store';
import { EmbeddedReadStore } from '../read-store/embedded/embedded-read-store';
import { ofRecordedType } from './recorded-event';
import { SagaEventForwarder } from './saga-event-forwarder';

class NoteDeposit extends Command<void> {
  constructor(readonly eventId: string) {
    super();
  }
}

const handled: string[] = [];

@CommandHandler(NoteDeposit)
class NoteDepositHandler implements ICommandHandler<NoteDeposit> {
  async execute(command: NoteDeposit): Promise<void> {
    handled.push(command.eventId);
  }
}

@Injectable()
class DepositSaga {
  @Saga()
  deposits = (events$: Observable<IEvent>) =>
    events$.pipe(
      ofRecordedType('Deposited'),
      map((e) => new NoteDeposit(e.recorded.metadata.eventId)),
    );
}

@Module({ imports: [CqrsModule.forRoot()], providers: [DepositSaga, NoteDepositHandler] })
class SagaTestModule {}

function deposit(): NewEvent {
  return {
    type: 'Deposited',
    data: {},
    metadata: {
      eventId: randomUUID(),
      correlationId: 'c',
      causationId: null,
      actor: 't',
      nodeId: 'n',
      occurredAt: new Date(0).toISOString(),
      schemaVersion: 1,
    },
  };
}

async function until(predicate: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timeout; handled=${handled.length}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function startNode(dir: string) {
  const app = await NestFactory.createApplicationContext(SagaTestModule, { logger: false });
  await app.init();
  const events = new SqliteEventStore({ file: join(dir, 'events.db'), pollIntervalMs: 20 });
  const reads = new EmbeddedReadStore({ file: join(dir, 'read.db') });
  const forwarder = new SagaEventForwarder(events, reads, app.get(EventBus));
  await forwarder.start();
  return {
    events,
    async stop() {
      await forwarder.stop();
      await reads.close();
      await events.close();
      await app.close();
    },
  };
}

describe('SagaEventForwarder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sagas-'));
    handled.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('given recorded events, then a @Saga() sees each and its commands reach their handler', async () => {
    const node = await startNode(dir);
    const appended = [deposit(), deposit(), deposit()];
    for (const e of appended) await node.events.append('account-1', [e], 'any');
    await until(() => handled.length >= 3);
    expect(handled).toEqual(appended.map((e) => e.metadata.eventId));
    await node.stop();
  });

  it('given events recorded while the node was down, when it restarts, then the saga sees them from its checkpoint', async () => {
    const first = await startNode(dir);
    const before = deposit();
    await first.events.append('account-1', [before], 'any');
    await until(() => handled.length >= 1);
    await first.stop();

    const offline = new SqliteEventStore({ file: join(dir, 'events.db') });
    const during = deposit();
    await offline.append('account-1', [during], 'any');
    await offline.close();

    handled.length = 0;
    const second = await startNode(dir);
    await until(() => handled.includes(during.metadata.eventId));
    expect(handled).not.toContain(before.metadata.eventId);
    await second.stop();
  });
});
