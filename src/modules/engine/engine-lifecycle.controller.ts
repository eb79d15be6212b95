/**
 * /api/tools/vram and /api/tools/lifecycle (SPEC §4.2): the GPUs, the models
 * this node knows with their priorities and placement, VRAM pressure, the
 * eviction order and hive hints; an admin's priority and offload.
 */
import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { PathParam, Refusal, Reply } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { OffloadModel, SetModelPriority } from './engine.commands';
import { LIFECYCLE, MODEL_OFFLOADED, MODEL_VIEW, VRAM } from './engine.replies';
import { MODEL_NAME_SCHEMA, PriorityDto } from './engine.requests';
import { EngineLifecycleQueries } from './engine-lifecycle.queries';

@Controller('api/tools')
export class EngineLifecycleController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EngineLifecycleQueries,
  ) {}

  @Get('vram')
  @Reply(200, VRAM)
  @Authenticated()
  vram() {
    return this.queries.vram();
  }

  @Get('lifecycle')
  @Reply(200, LIFECYCLE)
  @Authenticated()
  lifecycle() {
    return this.queries.lifecycle();
  }

  @Post('lifecycle/:model_name/priority')
  @HttpCode(200)
  @Reply(200, MODEL_VIEW, 'the model with its new priority (the same when it already had it)')
  @PathParam('model_name', MODEL_NAME_SCHEMA)
  @Refusal(404, 'no such model on this node')
  @Authenticated('operator', 'admin')
  priority(@Param('model_name') model: string, @Body() body: PriorityDto, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new SetModelPriority({ model, priority: body.priority }, context));
  }

  @Post('lifecycle/:model_name/offload')
  @HttpCode(200)
  @Reply(200, MODEL_OFFLOADED, 'the model, placed on the CPU; `restarted` when its running tool was restarted there')
  @PathParam('model_name', MODEL_NAME_SCHEMA)
  @Refusal(404, 'no such model on this node')
  @Refusal(409, 'the model is not this node’s to move, uses no GPU, or its tool cannot run on the CPU')
  @Authenticated('operator', 'admin')
  offload(@Param('model_name') model: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new OffloadModel({ model }, context));
  }
}
