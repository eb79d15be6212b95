/**
 * The device routes (social-routes §19), under /api/social and /social:
 * link a device (201 new, 200 already linked: updated and reactivated), list
 * the active bindings, unlink by binding id.
 */
import { Body, Controller, Delete, Get, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { DEVICE_NOT_FOUND, type DeviceBinding } from '../../aggregates/sync/device-binding';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, list, obj, ReadBody, Refusal, str } from '../common/openapi';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { LinkDevice, UnlinkDevice } from './sync.commands';
import { SyncQueries } from './sync.queries';
import { DEVICE_BINDING } from './sync.replies';
import { LINK_DEVICE_BODY_SCHEMA, linkDeviceRequest } from './sync.requests';

@Controller(socialPaths('sync'))
@Authenticated()
export class DevicesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SyncQueries,
  ) {}

  @Post('link-device')
  @ReadBody(LINK_DEVICE_BODY_SCHEMA)
  @EnvelopeReply(201, DEVICE_BINDING, 'a new binding')
  @EnvelopeReply(200, DEVICE_BINDING, 'the device was linked by the caller already: the binding, updated and reactivated')
  @Refusal(400, '`device_id is required`; a field of the wrong type or length')
  async link(
    @Body() body: unknown,
    @CurrentUser() caller: AuthUser,
    @RequestContext() context: CommandContext,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<DeviceBinding>> {
    const { binding, created } = await this.commands.execute(new LinkDevice({ userId: caller.id, ...linkDeviceRequest(body) }, context));
    reply.status(created ? 201 : 200);
    return ok(binding);
  }

  @Get('devices')
  @EnvelopeReply(200, list(DEVICE_BINDING), "the caller's active bindings, most recently linked first")
  async devices(@CurrentUser() caller: AuthUser): Promise<Envelope<DeviceBinding[]>> {
    return ok(await this.queries.activeDevices(caller.id));
  }

  @Delete('devices/:binding_id')
  @EnvelopeReply(200, obj({ message: str() }), 'the binding is marked inactive')
  @Refusal(404, `\`${DEVICE_NOT_FOUND}\`: no such binding, another user's, or one already unlinked`)
  async unlink(@Param('binding_id') bindingId: string, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ message: string }>> {
    await this.commands.execute(new UnlinkDevice({ userId: caller.id, bindingId }, context));
    return ok({ message: 'Device unlinked' });
  }
}
