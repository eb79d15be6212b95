/**
 * The agent engine (issue 18, SPEC §1 and §4.2), in five concerns, each with
 * its own controller:
 * - pressure: readings of RAM, CPU, disk and VRAM and the throttle factor the
 *   hive worker and the goal dispatcher pace themselves by (engine-pressure.*);
 * - tools: the runtime media tools of the manifest, set up, supervised and
 *   stopped (engine-tools.*);
 * - lifecycle: VRAM and the model lifecycle (engine-lifecycle.*);
 * - coding: coding CLIs and the sandboxed executor (engine-coding.*);
 * - skills: SKILL.md folders ingested, discovered and removed (engine-skills.*).
 * Commands and handlers are shared (engine.commands.ts, engine.handlers.ts).
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { ChatModule } from '../chat/chat.module';
import { ComputeModule } from '../compute/compute.module';
import { ENGINE_COMMAND_HANDLERS } from './engine.handlers';
import { EngineCodingController } from './engine-coding.controller';
import { EngineCodingQueries } from './engine-coding.queries';
import { EngineLifecycleController } from './engine-lifecycle.controller';
import { EngineLifecycleQueries } from './engine-lifecycle.queries';
import { EnginePressureController } from './engine-pressure.controller';
import { EngineSkillsController } from './engine-skills.controller';
import { EngineSkillsQueries } from './engine-skills.queries';
import { EngineToolsController } from './engine-tools.controller';
import { EngineToolsQueries } from './engine-tools.queries';
import { EngineToolsRuntime } from './engine-tools.runtime';
import { PressureGauge, SystemPressureGauge } from './pressure-gauge';
import { ToolCatalogue } from './tool-manifest';
import { ToolSupervisor } from './tool-supervisor';

@Module({
  imports: [CommonModule, AccountsModule, ComputeModule, ChatModule],
  controllers: [EnginePressureController, EngineToolsController, EngineLifecycleController, EngineCodingController, EngineSkillsController],
  providers: [
    SystemPressureGauge,
    { provide: PressureGauge, useExisting: SystemPressureGauge },
    ToolCatalogue,
    ToolSupervisor,
    EngineToolsRuntime,
    EngineToolsQueries,
    EngineLifecycleQueries,
    EngineCodingQueries,
    EngineSkillsQueries,
    ...ENGINE_COMMAND_HANDLERS,
  ],
  exports: [PressureGauge, SystemPressureGauge, EngineLifecycleQueries],
})
export class EngineModule {}
