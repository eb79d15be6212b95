/** Thought experiments (social-routes §17): proposals, discovery, votes and their tally, the lifecycle, auto-evolve. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ExperimentsController } from './experiments.controller';
import {
  AdvanceExperimentHandler,
  CastExperimentVoteHandler,
  ContributeToExperimentHandler,
  DecideExperimentHandler,
  EvaluateExperimentHandler,
  ProposeExperimentHandler,
  SetExperimentEvolutionPausedHandler,
} from './experiments.handlers';
import { ExperimentsQueries } from './experiments.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [ExperimentsController],
  providers: [
    ExperimentsQueries,
    ProposeExperimentHandler,
    AdvanceExperimentHandler,
    ContributeToExperimentHandler,
    CastExperimentVoteHandler,
    EvaluateExperimentHandler,
    DecideExperimentHandler,
    SetExperimentEvolutionPausedHandler,
  ],
  exports: [ExperimentsQueries],
})
export class ExperimentsModule {}
