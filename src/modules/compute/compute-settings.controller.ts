/**
 * /api/settings/compute (SPEC §4.3): this node's compute settings. Success
 * bodies are plain JSON as the SPEC shows them (no `{success, data}`
 * envelope); errors go through the common filter, except the central-tier
 * refusal whose body the SPEC fixes.
 */
import { Body, Controller, Get, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { RequestContext } from '../common/request-context';
import { UpdateComputeSettings } from './compute.commands';
import { UpdateComputeSettingsDto } from './compute.requests';
import { ComputeSettingsQueries } from './compute-settings.queries';
import { Refusal, Reply } from '../common/openapi';
import { CENTRAL_REFUSAL_NOTE, COMPUTE_SETTINGS, SETTINGS_UPDATE } from './compute.replies';

@Controller('api/settings/compute')
export class ComputeSettingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: ComputeSettingsQueries,
  ) {}

  @Get()
  @Reply(200, COMPUTE_SETTINGS)
  @Authenticated('operator', 'admin')
  settings() {
    return this.queries.settings();
  }

  @Put()
  @Reply(200, SETTINGS_UPDATE)
  @Refusal(403, `a role other than operator or admin, or ${CENTRAL_REFUSAL_NOTE}`)
  @Authenticated('operator', 'admin')
  update(@Body() body: UpdateComputeSettingsDto, @RequestContext() context: CommandContext) {
    return this.commands.execute(new UpdateComputeSettings({ changes: { ...body } }, context));
  }
}
