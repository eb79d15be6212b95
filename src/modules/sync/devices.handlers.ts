/** Command handlers of the device bindings (social-routes §19): one stream per (user, device). */
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DomainError } from '../../aggregates/shared/domain-error';
import { DEVICE_NOT_FOUND, type DeviceBinding, deviceBindingDecider, deviceBindingId, deviceBindingStreamId } from '../../aggregates/sync/device-binding';
import { CommandExecutor } from '../common/command-executor';
import { LinkDevice, UnlinkDevice } from './sync.commands';

const BINDING_ID = /^dev_[0-9a-f]{24}$/;

@CommandHandler(LinkDevice)
export class LinkDeviceHandler implements ICommandHandler<LinkDevice> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: LinkDevice): Promise<{ binding: DeviceBinding; created: boolean }> {
    const stream = deviceBindingStreamId(deviceBindingId(payload.userId, payload.deviceId));
    const { events, state } = await this.executor.execute(deviceBindingDecider, stream, { kind: 'link', ...payload }, context);
    if (state.status === 'none') throw new Error('a link left no binding');
    return { binding: state.binding, created: events.some((event) => event.type === 'DeviceLinked') };
  }
}

@CommandHandler(UnlinkDevice)
export class UnlinkDeviceHandler implements ICommandHandler<UnlinkDevice> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: UnlinkDevice): Promise<void> {
    if (!BINDING_ID.test(payload.bindingId)) throw new DomainError('not_found', DEVICE_NOT_FOUND);
    await this.executor.execute(deviceBindingDecider, deviceBindingStreamId(payload.bindingId), { kind: 'unlink', userId: payload.userId }, context);
  }
}
