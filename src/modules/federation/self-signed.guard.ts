/**
 * POST /federation/nodes/register: the request must be signed (x-node-*
 * headers, signed-request.ts) as the body's `node_id` by the key in the
 * body's `public_key`: whoever registers a key proves they hold it. Runs
 * before body validation, so an unsigned request is a 401 whatever its body.
 */
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type NonceStore, verifySignedRequest } from '../../infrastructure/node-identity/signed-request';
import { rawJsonTextOf } from '../common/json-body';
import { NONCE_STORE } from '../integrity/node-signature.guard';

@Injectable()
export class SelfSignedRegistrationGuard implements CanActivate {
  constructor(
    @Inject(NONCE_STORE) private readonly nonces: NonceStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const body = (request.body ?? {}) as { node_id?: unknown; public_key?: unknown };
    const claimed = typeof body.node_id === 'string' && typeof body.public_key === 'string' && /^[0-9a-f]{64}$/.test(body.public_key) ? body : null;
    const verified = await verifySignedRequest(
      { method: request.method, path: request.url, body: rawJsonTextOf(request), headers: request.headers },
      {
        keys: { publicKeyOf: async (nodeId) => (claimed && nodeId === claimed.node_id ? (claimed.public_key as string) : null) },
        nonces: this.nonces,
        now: Date.now(),
        maxSkewMs: this.config.integrity.signatureMaxSkewMs,
      },
    );
    if (!verified.ok) {
      const message = verified.refusal === 'unknown_node' ? 'The request must be signed by public_key as node_id' : verified.message;
      throw new DomainError('unauthenticated', message, { code: verified.refusal });
    }
    return true;
  }
}
