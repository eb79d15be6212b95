/**
 * /api/tools (SPEC §4.2): the runtime media tools of the manifest: their
 * status, setup, start, stop and unload, and speech through the TTS tool.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { CommandContext } from '../common/command-executor';
import { PathParam, Refusal, Reply } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { SetUpTool, StartTool, StopTool, UnloadTool } from './engine.commands';
import { TOOL_STATUS, TOOL_VIEW } from './engine.replies';
import { SpeakDto, TOOL_NAME_SCHEMA } from './engine.requests';
import { EngineToolsQueries } from './engine-tools.queries';
import { EngineToolsRuntime } from './engine-tools.runtime';
import { ToolCatalogue } from './tool-manifest';

@Controller('api/tools')
export class EngineToolsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: EngineToolsQueries,
    private readonly runtime: EngineToolsRuntime,
    private readonly catalogue: ToolCatalogue,
  ) {}

  @Get('status')
  @Reply(200, TOOL_STATUS)
  @Authenticated()
  status() {
    return this.queries.status();
  }

  @Post('tts/speak')
  @HttpCode(200)
  @ApiProduces('audio/wav')
  @ApiResponse({ status: 200, description: 'the speech as a WAV file (RIFF, 22050 Hz mono, from espeak-ng)', content: { 'audio/wav': { schema: { type: 'string', format: 'binary' } } } })
  @Refusal(409, 'the tts tool is not running')
  @RateLimited('pipeline', 'pipeline_ip')
  @Refusal(503, 'the tts tool did not answer')
  @Authenticated()
  async speak(@Body() body: SpeakDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    const wav = await this.runtime.speak({ text: body.text, voice: body.voice ?? 'en', speed: body.speed ?? 160 });
    void reply.type('audio/wav').header('cache-control', 'no-store');
    return wav;
  }

  @Post(':tool_name/setup')
  @HttpCode(200)
  @Reply(200, TOOL_VIEW, 'the tool, set up: its program located (installed where ENGINE_ALLOW_INSTALL allows) and its server files written')
  @PathParam('tool_name', TOOL_NAME_SCHEMA)
  @Refusal(404, 'no such tool in the manifest')
  @Refusal(503, 'the program is not installed (and installing is not allowed, or failed)')
  @Authenticated('operator', 'admin')
  setUp(@Param('tool_name') name: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new SetUpTool({ tool: this.catalogue.of(name).name }, context));
  }

  @Post(':tool_name/start')
  @HttpCode(200)
  @Reply(200, TOOL_VIEW, 'the tool, running and healthy (or already running)')
  @PathParam('tool_name', TOOL_NAME_SCHEMA)
  @Refusal(404, 'no such tool in the manifest')
  @Refusal(409, 'the tool is not set up')
  @Refusal(503, 'the tool could not start or did not become healthy')
  @Authenticated('operator', 'admin')
  start(@Param('tool_name') name: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new StartTool({ tool: this.catalogue.of(name).name }, context));
  }

  @Post(':tool_name/stop')
  @HttpCode(200)
  @Reply(200, TOOL_VIEW, 'the tool, stopped (a tool that was not running is left as it was)')
  @PathParam('tool_name', TOOL_NAME_SCHEMA)
  @Refusal(404, 'no such tool in the manifest')
  @Refusal(409, 'the tool is not set up')
  @Authenticated('operator', 'admin')
  stop(@Param('tool_name') name: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new StopTool({ tool: this.catalogue.of(name).name }, context));
  }

  @Post(':tool_name/unload')
  @HttpCode(200)
  @Reply(200, TOOL_VIEW, 'the tool, unloaded: its process ended and its model released')
  @PathParam('tool_name', TOOL_NAME_SCHEMA)
  @Refusal(404, 'no such tool in the manifest')
  @Refusal(409, 'the tool is not set up')
  @Authenticated('operator', 'admin')
  unload(@Param('tool_name') name: string, @RequestContext() context: CommandContext): Promise<unknown> {
    return this.commands.execute(new UnloadTool({ tool: this.catalogue.of(name).name, reason: 'operator' }, context));
  }
}
