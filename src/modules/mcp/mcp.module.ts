/** The MCP server at /mcp: tools over the contest, chat and encounter contexts' own commands and queries. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ContestModule } from '../contest/contest.module';
import { EncounterModule } from '../encounter/encounter.module';
import { McpController } from './mcp.controller';
import { McpTools } from './mcp-tools';

@Module({
  imports: [CommonModule, AccountsModule, ContestModule, EncounterModule],
  controllers: [McpController],
  providers: [McpTools],
})
export class McpModule {}
