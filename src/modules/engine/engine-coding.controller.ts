/**
 * /coding (SPEC §4.2): the coding CLIs of this node, sandboxed runs of coding
 * tasks with the built-in executor, their benchmarks, and installs of
 * allow-listed CLIs.
 */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { AuthUser } from '../accounts/auth/auth-user';
import type { CommandContext } from '../common/command-executor';
import { Refusal, Reply } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { ExecuteCodingTask, InstallCodingTool } from './engine.commands';
import { CODING_BENCHMARKS, CODING_INSTALLED, CODING_RUN, CODING_TOOLS } from './engine.replies';
import { ExecuteCodingDto, InstallCodingToolDto } from './engine.requests';
import { EngineCodingQueries } from './engine-coding.queries';

@Controller('coding')
export class EngineCodingController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EngineCodingQueries,
  ) {}

  @Get('tools')
  @Reply(200, CODING_TOOLS)
  @Authenticated()
  tools() {
    return this.queries.tools();
  }

  @Post('execute')
  @HttpCode(200)
  @Reply(200, CODING_RUN, 'the run, whatever its outcome (`status`: passed, failed, timed_out)')
  @Refusal(409, 'preferred_tool is not an executor of this node')
  @RateLimited('pipeline', 'pipeline_ip')
  @Refusal(503, 'no language model is configured and the task carries no code, or the model server is unavailable')
  @Authenticated()
  execute(@CurrentUser() user: AuthUser, @Body() body: ExecuteCodingDto, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(
      new ExecuteCodingTask(
        {
          userId: user.id,
          task: body.task,
          taskType: body.task_type ?? 'general',
          preferredTool: body.preferred_tool ?? null,
          model: body.model ?? null,
          code: body.code ?? null,
          timeoutMs: body.timeout_ms ?? null,
        },
        context,
      ),
    );
  }

  @Get('benchmarks')
  @Reply(200, CODING_BENCHMARKS)
  @Authenticated()
  benchmarks() {
    return this.queries.benchmarks();
  }

  @Post('install')
  @HttpCode(200)
  @Reply(200, CODING_INSTALLED)
  @Refusal(503, 'installing is off (ENGINE_ALLOW_INSTALL), or npm failed (the failure is recorded)')
  @Authenticated('operator', 'admin')
  install(@Body() body: InstallCodingToolDto, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new InstallCodingTool({ tool: body.tool_name }, context));
  }
}
