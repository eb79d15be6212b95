/**
 * Node-to-node routes: `@NodeSigned()` admits a request only when it carries
 * a valid signature of a node with a registered key, a fresh timestamp and a
 * nonce not seen before (src/infrastructure/node-identity/signed-request.ts);
 * otherwise 401 naming what was wrong. `@CallingNode()` gives the handler
 * the verified node id. No user credential is involved.
 */
import { applyDecorators, type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type NodeKeyDirectory, type NonceStore, verifySignedRequest } from '../../infrastructure/node-identity/signed-request';
import { rawJsonTextOf } from '../common/json-body';
import { Refusal } from '../common/openapi';

export const NODE_KEY_DIRECTORY = Symbol('NODE_KEY_DIRECTORY');
export const NONCE_STORE = Symbol('NONCE_STORE');

const CALLING_NODE = Symbol('callingNode');

@Injectable()
export class NodeSignatureGuard implements CanActivate {
  constructor(
    @Inject(NODE_KEY_DIRECTORY) private readonly keys: NodeKeyDirectory,
    @Inject(NONCE_STORE) private readonly nonces: NonceStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest & { [CALLING_NODE]?: string }>();
    const verified = await verifySignedRequest(
      { method: request.method, path: request.url, body: rawJsonTextOf(request), headers: request.headers },
      { keys: this.keys, nonces: this.nonces, now: Date.now(), maxSkewMs: this.config.integrity.signatureMaxSkewMs },
    );
    if (!verified.ok) throw new DomainError('unauthenticated', verified.message, { code: verified.refusal });
    request[CALLING_NODE] = verified.nodeId;
    return true;
  }
}

/** A node-to-node route: a valid node signature is required (401 otherwise). */
export function NodeSigned(): MethodDecorator {
  return applyDecorators(
    UseGuards(NodeSignatureGuard),
    Refusal(401, 'no valid node signature: headers missing or malformed, timestamp outside the window, unknown node, bad signature, or a replayed nonce'),
  );
}

/** The node id a `@NodeSigned()` route's request was verified as. */
export const CallingNode = createParamDecorator((_: unknown, context: ExecutionContext): string => {
  const node = context.switchToHttp().getRequest<{ [CALLING_NODE]?: string }>()[CALLING_NODE];
  if (!node) throw new Error('CallingNode used on a route without @NodeSigned()');
  return node;
});
