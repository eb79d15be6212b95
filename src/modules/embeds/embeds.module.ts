/** The embedding routes: the agent pages and the widget scripts (embeds.controller.ts). */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { EmbedsController } from './embeds.controller';

@Module({
  imports: [AccountsModule],
  controllers: [EmbedsController],
})
export class EmbedsModule {}
