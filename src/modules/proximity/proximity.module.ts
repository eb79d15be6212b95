/** The social platform's encounters (social-routes §13): the durable record of who met whom, in which context. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { EncountersController } from './encounters.controller';
import { MissedConnectionsController } from './missed-connections.controller';
import { MissedConnectionQueries } from './missed-connections.queries';
import {
  AcceptMissedConnectionResponseHandler,
  AcknowledgeSocialEncounterHandler,
  PostMissedConnectionHandler,
  RespondToMissedConnectionHandler,
  WithdrawMissedConnectionHandler,
  PingLocationHandler,
  RecordSocialEncounterHandler,
  RevealProximityMatchHandler,
  SetLocationSharingHandler,
} from './proximity.handlers';
import { ProximityQueries } from './proximity.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [EncountersController, MissedConnectionsController],
  providers: [
    ProximityQueries,
    RecordSocialEncounterHandler,
    AcknowledgeSocialEncounterHandler,
    PingLocationHandler,
    SetLocationSharingHandler,
    RevealProximityMatchHandler,
    MissedConnectionQueries,
    PostMissedConnectionHandler,
    WithdrawMissedConnectionHandler,
    RespondToMissedConnectionHandler,
    AcceptMissedConnectionResponseHandler,
  ],
})
export class ProximityModule {}
