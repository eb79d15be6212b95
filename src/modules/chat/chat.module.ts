/**
 * The agent pipeline: /chat (CREATE and REUSE recipes), /visual_agent,
 * /add_history; the gate before execution (gate/), the modes (flows/), the
 * agent's built-in tools (tools/), and the LLM port, whose offline engine is
 * handed those tools.
 */
import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { createLanguageModel } from '../../infrastructure/llm/llm.factory';
import { LLM } from '../../infrastructure/llm/llm.port';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ComputeModule } from '../compute/compute.module';
import { ChatPipeline } from './chat-pipeline';
import { DefaultChatPipeline } from './chat-pipeline.service';
import { ChatController } from './chat.controller';
import { AppendHistoryHandler, AskAboutImageHandler, RecordExpertAnswerHandler, RunPromptHandler } from './chat.handlers';
import { ChatQueries } from './chat.queries';
import { ActionRunner } from './flows/action-runner';
import { CasualFlow } from './flows/casual.flow';
import { CreateFlow } from './flows/create.flow';
import { ReuseFlow } from './flows/reuse.flow';
import { TurnResponses } from './flows/turn-responses';
import { VisionFlow } from './flows/vision.flow';
import { ChatGate } from './gate/chat-gate';
import { AgentTools } from './tools/agent-tools';
import { SkillDirectory } from './tools/skills';

@Module({
  imports: [CommonModule, AccountsModule, ComputeModule],
  controllers: [ChatController],
  providers: [
    {
      provide: LLM,
      inject: [APP_CONFIG, AgentTools],
      useFactory: (config: AppConfig, tools: AgentTools) => createLanguageModel(config.llm, tools),
    },
    ChatGate,
    AgentTools,
    SkillDirectory,
    ActionRunner,
    TurnResponses,
    CasualFlow,
    CreateFlow,
    ReuseFlow,
    VisionFlow,
    ChatQueries,
    DefaultChatPipeline,
    { provide: ChatPipeline, useExisting: DefaultChatPipeline },
    RunPromptHandler,
    AskAboutImageHandler,
    AppendHistoryHandler,
    RecordExpertAnswerHandler,
  ],
  exports: [LLM, ChatPipeline, ChatGate],
})
export class ChatModule {}
