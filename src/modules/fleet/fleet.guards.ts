/**
 * Guards of the hierarchy routes (social-routes §18):
 *
 * - CentralTierGuard: 403 `Central tier required` unless this node's tier
 *   (SVC_NODE_TIER, or central after verify-upgrade) is central. Runs after
 *   the signature guard, so an unsigned request is still a 401.
 * - FleetSignedGuard: a request signed (x-node-* headers, signed-request.ts)
 *   by a node with a key this node trusts (its own, TRUSTED_NODE_KEYS,
 *   approved federation nodes) or a key pinned by its hierarchy
 *   registration (register-local). Keys pinned here are trusted on the
 *   fleet routes only, never on the other node-to-node routes. A banned
 *   node is refused with 403. `@FleetCaller()` gives the verified node id.
 */
import { type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type NodeKeyDirectory, type NonceStore, verifySignedRequest } from '../../infrastructure/node-identity/signed-request';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FLEET_NODES, type FleetNodeDoc } from '../../projections/fleet/fleet-nodes.projection';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import { rawJsonTextOf } from '../common/json-body';
import { NODE_KEY_DIRECTORY, NONCE_STORE } from '../integrity/node-signature.guard';
import { FleetQueries } from './fleet.queries';

export const CENTRAL_REQUIRED = 'Central tier required';
const FLEET_CALLER = Symbol('fleetCaller');

@Injectable()
export class CentralTierGuard implements CanActivate {
  constructor(private readonly fleet: FleetQueries) {}

  async canActivate(): Promise<boolean> {
    if ((await this.fleet.effectiveTier()).tier !== 'central') throw new DomainError('forbidden', CENTRAL_REQUIRED);
    return true;
  }
}

@Injectable()
export class FleetSignedGuard implements CanActivate {
  constructor(
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    @Inject(NONCE_STORE) private readonly nonces: NonceStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { [FLEET_CALLER]?: string }>();
    const directory: NodeKeyDirectory = {
      publicKeyOf: async (nodeId) =>
        (await this.keys.publicKeyOf(nodeId)) ?? (await this.readStore.collection<FleetNodeDoc>(FLEET_NODES).findOne({ _id: nodeId }))?.public_key ?? null,
    };
    const verified = await verifySignedRequest(
      { method: request.method, path: request.url, body: rawJsonTextOf(request), headers: request.headers },
      { keys: directory, nonces: this.nonces, now: Date.now(), maxSkewMs: this.config.integrity.signatureMaxSkewMs },
    );
    if (!verified.ok) throw new DomainError('unauthenticated', verified.message, { code: verified.refusal });
    const standing = await this.readStore.collection<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: verified.nodeId });
    if (standing?.banned) throw new DomainError('forbidden', 'Node is banned');
    request[FLEET_CALLER] = verified.nodeId;
    return true;
  }
}

export const FleetCaller = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const node = context.switchToHttp().getRequest<{ [FLEET_CALLER]?: string }>()[FLEET_CALLER];
  if (!node) throw new Error('FleetCaller used on a route without FleetSignedGuard');
  return node;
});

/** Who may act for the hierarchy on this node: the node itself (its operator's tooling) and the nodes of TRUSTED_NODE_KEYS. */
export const isHierarchyAuthority = (config: AppConfig, nodeId: string): boolean => nodeId === config.nodeId || nodeId in config.integrity.trustedNodeKeys;
