/**
 * The encounter flow: discoverable preference, rotating pubkeys, sightings,
 * swipes, matches, icebreakers, and consents. Its streams are private to their
 * users: the integration-event relay never publishes them; users hear of
 * their own encounter events only through the per-user topics
 * (EncounterStreamModule).
 */
import { Module, type OnModuleInit } from '@nestjs/common';
import { PRIVATE_ENCOUNTER_CATEGORIES } from '../../aggregates/encounter/encounter.events';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ENCOUNTER_CONFIG, type EncounterConfig } from '../../config/encounter.config';
import { IntegrationEventRelay } from '../../infrastructure/bus/integration-event-relay';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ConsentController } from './consent.controller';
import { EncounterController } from './encounter.controller';
import {
  ApproveIcebreakerHandler,
  DeclineIcebreakerHandler,
  RecordSightingHandler,
  RegisterPubkeyHandler,
  SetConsentHandler,
  SetDiscoverableHandler,
  SwipeHandler,
} from './encounter.handlers';
import { EncounterQueries } from './encounter.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [EncounterController, ConsentController],
  providers: [
    { provide: ENCOUNTER_CONFIG, inject: [APP_CONFIG], useFactory: (config: AppConfig): EncounterConfig => config.encounter },
    EncounterQueries,
    SetDiscoverableHandler,
    RegisterPubkeyHandler,
    RecordSightingHandler,
    SwipeHandler,
    ApproveIcebreakerHandler,
    DeclineIcebreakerHandler,
    SetConsentHandler,
  ],
  exports: [ENCOUNTER_CONFIG, EncounterQueries],
})
export class EncounterModule implements OnModuleInit {
  constructor(
    private readonly relay: IntegrationEventRelay,
  ) {}

  onModuleInit(): void {
    this.relay.keepPrivate(...PRIVATE_ENCOUNTER_CATEGORIES);
  }
}
