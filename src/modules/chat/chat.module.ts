/**
 * The agent pipeline: /chat (CREATE and REUSE recipes), /visual_agent,
 * /add_history, the guards before execution, and the LLM port.
 */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Clock } from '../../infrastructure/clock';
import { createLanguageModel } from '../../infrastructure/llm/llm.factory';
import { LLM } from '../../infrastructure/llm/llm.port';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ComputeModule } from '../compute/compute.module';
import { ActionRunner } from './action-runner';
import { ChatPipeline } from './chat-pipeline';
import { DefaultChatPipeline } from './chat-pipeline.service';
import { ChatController } from './chat.controller';
import { RecordExpertAnswerHandler } from './chat.handlers';
import { ChatQueries } from './chat.queries';
import { CHAT_RATE_LIMITER } from './chat.tokens';
import { ChatRateLimiter } from './guards/rate-limit';
import { AgentTools } from './tools/agent-tools';

@Module({
  imports: [CommonModule, AccountsModule, ComputeModule],
  controllers: [ChatController],
  providers: [
    {
      provide: LLM,
      inject: [APP_CONFIG, AgentTools],
      useFactory: (config: AppConfig, tools: AgentTools) => createLanguageModel(config.llm, tools),
    },
    {
      provide: CHAT_RATE_LIMITER,
      inject: [READ_STORE, Clock, APP_CONFIG],
      useFactory: (store: ReadStore, clock: Clock, config: AppConfig) =>
        new ChatRateLimiter(store, () => clock.now(), config.chat.rateLimitPerMinute, 60),
    },
    AgentTools,
    ActionRunner,
    ChatQueries,
    DefaultChatPipeline,
    { provide: ChatPipeline, useExisting: DefaultChatPipeline },
    RecordExpertAnswerHandler,
  ],
  exports: [LLM, ChatPipeline],
})
export class ChatModule {}
