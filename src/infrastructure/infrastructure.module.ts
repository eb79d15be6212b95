/**
 * The three ports and the event-sourcing machinery, chosen by configuration
 * (EVENT_STORE, READ_STORE, BUS), never by code edits. Global: every feature
 * module injects the ports by their tokens.
 */
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CommandBus, CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { EventRelays } from './bus/event-relay';
import { IntegrationEventRelay } from './bus/integration-event-relay';
import { MESSAGE_BUS, type MessageBus } from './bus/message-bus.port';
import { PROCESS_ROLE, type ProcessRole } from './process-role';
import { Clock, SystemClock } from './clock';
import { EVENT_STORE, type EventStore } from './event-store/event-store.port';
import { UpcasterRegistry } from './eventsourcing/upcasters';
import { PlatformLifecycle } from './platform-lifecycle';
import type { ProjectionDefinition } from './projections/projection';
import { ProjectionRegistry } from './projections/projection-registry';
import { ProjectionEngine } from './projections/projection-engine';
import { ReadYourWrites } from './projections/read-your-writes';
import { READ_STORE, type ReadStore } from './read-store/read-store.port';
import { SagaRunner } from './sagas/saga-runner';
import { createEventStore, createMessageBus, createReadStore } from './ports.factory';

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, role: ProcessRole, projections: readonly ProjectionDefinition[]): DynamicModule {
    return {
      module: InfrastructureModule,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: PROCESS_ROLE, useValue: role },
        { provide: Clock, useClass: SystemClock },
        UpcasterRegistry,
        {
          provide: EVENT_STORE,
          inject: [UpcasterRegistry],
          useFactory: (upcasters: UpcasterRegistry): Promise<EventStore> => createEventStore(config, upcasters),
        },
        { provide: READ_STORE, useFactory: (): Promise<ReadStore> => createReadStore(config) },
        { provide: MESSAGE_BUS, useFactory: (): Promise<MessageBus> => createMessageBus(config) },
        { provide: ProjectionRegistry, useValue: new ProjectionRegistry(projections) },
        {
          provide: ProjectionEngine,
          inject: [EVENT_STORE, READ_STORE, ProjectionRegistry],
          useFactory: (es: EventStore, rs: ReadStore, registry: ProjectionRegistry) =>
            new ProjectionEngine(es, rs, registry),
        },
        {
          provide: SagaRunner,
          inject: [EVENT_STORE, READ_STORE, CommandBus],
          useFactory: (es: EventStore, rs: ReadStore, commands: CommandBus) => new SagaRunner(es, rs, commands),
        },
        { provide: IntegrationEventRelay, useValue: new IntegrationEventRelay(config.kafka?.topicPrefix ?? 'svc.events') },
        {
          provide: EventRelays,
          inject: [EVENT_STORE, READ_STORE, MESSAGE_BUS, IntegrationEventRelay],
          useFactory: (es: EventStore, rs: ReadStore, bus: MessageBus, integration: IntegrationEventRelay) => {
            const relays = new EventRelays(es, rs, bus);
            if (config.integrationEvents) relays.register(integration);
            return relays;
          },
        },
        ReadYourWrites,
        PlatformLifecycle,
      ],
      exports: [
        APP_CONFIG,
        PROCESS_ROLE,
        Clock,
        UpcasterRegistry,
        EVENT_STORE,
        READ_STORE,
        MESSAGE_BUS,
        ProjectionRegistry,
        ProjectionEngine,
        ReadYourWrites,
        PlatformLifecycle,
        SagaRunner,
        IntegrationEventRelay,
        EventRelays,
        CqrsModule,
      ],
    };
  }
}
