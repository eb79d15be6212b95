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
import { Metrics } from './observability/metrics';
import { registerPlatformMetrics } from './observability/platform-metrics';
import { PlatformLifecycle } from './platform-lifecycle';
import type { ProjectionDefinition } from './projections/projection';
import { ProjectionRegistry } from './projections/projection-registry';
import { ProjectionEngine } from './projections/projection-engine';
import { ReadYourWrites } from './projections/read-your-writes';
import { READ_STORE, type ReadStore } from './read-store/read-store.port';
import { SagaRunner } from './sagas/saga-runner';
import { createEventStore, createKeyStore, createMessageBus, createReadStore } from './ports.factory';
import { KEY_STORE, type KeyStore } from './personal-data/key-store.port';
import type { PersonalDataCatalogue } from './personal-data/shredding-event-store';

/** The platform gauges' registration (a provider so that it runs once the parts exist). */
const PLATFORM_METRICS = Symbol('PLATFORM_METRICS');

@Global()
@Module({})
export class InfrastructureModule {
  static forRoot(config: AppConfig, role: ProcessRole, projections: readonly ProjectionDefinition[], personalData: PersonalDataCatalogue): DynamicModule {
    return {
      module: InfrastructureModule,
      imports: [CqrsModule.forRoot()],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: PROCESS_ROLE, useValue: role },
        { provide: Clock, useClass: SystemClock },
        UpcasterRegistry,
        { provide: Metrics, useValue: new Metrics({ defaultMetrics: config.observability.metrics.enabled }) },
        { provide: KEY_STORE, useFactory: (): Promise<KeyStore> => createKeyStore(config) },
        {
          provide: EVENT_STORE,
          inject: [UpcasterRegistry, Metrics, KEY_STORE],
          useFactory: (upcasters: UpcasterRegistry, metrics: Metrics, keys: KeyStore): Promise<EventStore> =>
            createEventStore(config, upcasters, { catalogue: personalData, keys }, (appends, events) => metrics.observeCommit(appends, events)),
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
        {
          provide: PLATFORM_METRICS,
          inject: [Metrics, EVENT_STORE, ProjectionEngine, SagaRunner, EventRelays, MESSAGE_BUS, PlatformLifecycle],
          useFactory: (metrics: Metrics, es: EventStore, engine: ProjectionEngine, sagas: SagaRunner, relays: EventRelays, bus: MessageBus, lifecycle: PlatformLifecycle) => {
            if (!config.observability.metrics.enabled) return false;
            registerPlatformMetrics(metrics, { eventStore: es, projections: engine, sagas, relays, bus, runsBackgroundWork: () => lifecycle.runsBackgroundWork() });
            return true;
          },
        },
      ],
      exports: [
        APP_CONFIG,
        KEY_STORE,
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
        Metrics,
        SagaRunner,
        IntegrationEventRelay,
        EventRelays,
        CqrsModule,
      ],
    };
  }
}
