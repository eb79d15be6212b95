/** Agents (naming, agents owned by humans, evolution, collaborations), tasks and shared recipes (social-routes §3, §9, §10). */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { AgentMarketplaceController, AgentsController, DiscoveryController, UserAgentsController } from './agents.controller';
import {
  AgentAccounts,
  AssignTaskHandler,
  CollaborateHandler,
  CreateAgentHandler,
  CreateTaskHandler,
  CreditAgentXpHandler,
  FinishTaskHandler,
  ForkRecipeHandler,
  RecordAgentActivityHandler,
  RegisterBotHandler,
  RunWebhookHandler,
  ShareRecipeHandler,
  SyncAgentsHandler,
  SpecializeAgentHandler,
} from './agents.handlers';
import { AgentsQueries } from './agents.queries';
import { AgentsAdminController, GrowthController } from './agents-admin.controller';
import { AgentsAdminQueries } from './agents-admin.queries';
import { AgentActivityController, BotsController } from './bots.controller';
import { RecipeMarketplaceController, RecipesController } from './recipes.controller';
import { TasksController } from './tasks.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [AgentsController, UserAgentsController, DiscoveryController, AgentMarketplaceController, TasksController, RecipesController, RecipeMarketplaceController, BotsController, AgentActivityController, AgentsAdminController, GrowthController],
  providers: [
    AgentsQueries,
    AgentsAdminQueries,
    AgentAccounts,
    RegisterBotHandler,
    SyncAgentsHandler,
    RecordAgentActivityHandler,
    RunWebhookHandler,
    CreateAgentHandler,
    SpecializeAgentHandler,
    CollaborateHandler,
    CreditAgentXpHandler,
    CreateTaskHandler,
    AssignTaskHandler,
    FinishTaskHandler,
    ShareRecipeHandler,
    ForkRecipeHandler,
  ],
  exports: [AgentsQueries],
})
export class AgentsModule {}
