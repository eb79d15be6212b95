/** The node registry's command handlers: one decider, `federationNode-<id>`. */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { federationNodeDecider, type FederationNodeState, federationNodeStreamId } from '../../aggregates/federation/federation-node';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { CommandExecutor } from '../common/command-executor';
import { ApproveFederationNode, type FederationNodeRecord, RegisterFederationNode } from './federation.commands';

function record(nodeId: string, state: FederationNodeState): FederationNodeRecord {
  if (state.status === 'unknown') throw new Error('expected a registered node');
  return { node_id: nodeId, public_key: state.publicKey, url: state.url, tier: state.tier, status: state.status };
}

@CommandHandler(RegisterFederationNode)
export class RegisterFederationNodeHandler implements ICommandHandler<RegisterFederationNode> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ payload, context }: RegisterFederationNode): Promise<FederationNodeRecord> {
    const { state } = await this.executor.execute(
      federationNodeDecider,
      federationNodeStreamId(payload.nodeId),
      { kind: 'register', ...payload, autoApprove: this.config.federation.autoAccept },
      context,
    );
    return record(payload.nodeId, state);
  }
}

@CommandHandler(ApproveFederationNode)
export class ApproveFederationNodeHandler implements ICommandHandler<ApproveFederationNode> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: ApproveFederationNode): Promise<FederationNodeRecord> {
    const { state } = await this.executor.execute(federationNodeDecider, federationNodeStreamId(payload.nodeId), { kind: 'approve', ...payload }, context);
    return record(payload.nodeId, state);
  }
}
