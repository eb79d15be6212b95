/**
 * Agent-to-Agent (SPEC §4.6): every registered agent's card and JSON-RPC
 * endpoint, tasks executed by the /chat pipeline, and the probe of gateway
 * URLs for A2A-compatible peers.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { ChatModule } from '../chat/chat.module';
import { CommonModule } from '../common/common.module';
import { A2aPeersController } from './a2a-peers.controller';
import { A2aController } from './a2a.controller';
import { CancelA2aTaskHandler, SendA2aMessageHandler } from './a2a.handlers';
import { A2aQueries } from './a2a.queries';

@Module({
  imports: [CommonModule, AccountsModule, ChatModule],
  controllers: [A2aPeersController, A2aController],
  providers: [A2aQueries, SendA2aMessageHandler, CancelA2aTaskHandler],
})
export class A2aModule {}
