/** What every feature module uses to turn commands into events. */
import { Module } from '@nestjs/common';
import { CommandExecutor } from './command-executor';

@Module({ providers: [CommandExecutor], exports: [CommandExecutor] })
export class CommonModule {}
