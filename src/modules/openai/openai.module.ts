/**
 * The OpenAI-compatible API under /v1 (docs/api.md): the controller, and the
 * completions service on the chat context's LLM port, metering each call in
 * the compute context (MeterApiUsage).
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ChatModule } from '../chat/chat.module';
import { CommonModule } from '../common/common.module';
import { OpenAiCompletions } from './openai-completions.service';
import { OpenAiController } from './openai.controller';

@Module({
  imports: [CommonModule, AccountsModule, ChatModule],
  controllers: [OpenAiController],
  providers: [OpenAiCompletions],
})
export class OpenAiModule {}
