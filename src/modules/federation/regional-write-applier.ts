/**
 * Central's side of a regional node's writes (regional-writes.ts; issue 17
 * item 2), used by the /hierarchy/sync handler for `regional_write` items:
 * the sender must be a regional node registered and approved here; the
 * request runs in this process as the client made it (Fastify's inject,
 * through this node's own guards, validation and deciders, the client's
 * address as its remote address, a loopback client of the regional node as
 * `node:<id>` so it is never this node's local caller), once per item (its
 * receipt). A 5xx is an error of the item (retried by the sender); any other
 * status is the client's answer, sent back with this node's log head.
 */
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../aggregates/shared/domain-error';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FEDERATION_NODES, type FederationNodeDoc } from '../../projections/federation/federation-nodes.projection';
import { isLoopback } from '../accounts/auth/pipeline-caller';
import { FORWARDED_HEADERS, MUTATING, type RegionalWrite } from './regional-writes';
import { type ForwardedReply, replyHeadersOf } from './sync-batch-client';

/** Runs a regional node's forwarded write as the client made it. */
@Injectable()
export class RegionalWriteApplier {
  constructor(
    private readonly http: HttpAdapterHost,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async apply(senderNodeId: string, payload: unknown): Promise<ForwardedReply> {
    const node = await this.readStore.collection<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: senderNodeId });
    if (node?.status !== 'approved' || node.tier !== 'regional') throw new DomainError('forbidden', 'regional_write items are taken from approved regional nodes only');
    const write = readRegionalWrite(payload);
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    const response = await fastify.inject({
      method: write.method as 'POST',
      url: write.path,
      headers: write.headers,
      ...(write.body === null ? {} : { payload: write.body }),
      remoteAddress: isLoopback(write.client_ip) ? `node:${senderNodeId}` : write.client_ip,
    });
    if (response.statusCode >= 500) throw new Error(`the write failed here with ${response.statusCode}: ${response.body.slice(0, 300)}`);
    const contentType = response.headers['content-type'];
    return {
      status: response.statusCode,
      content_type: typeof contentType === 'string' ? contentType : 'application/json; charset=utf-8',
      headers: replyHeadersOf(response.headers),
      body: response.body,
      position: await this.store.headPosition(),
    };
  }
}

/** A `regional_write` payload as a sender sent it; 400-worthy (`invalid`) when it is not one. */
export function readRegionalWrite(payload: unknown): RegionalWrite {
  const p = (payload && typeof payload === 'object' && !Array.isArray(payload) ? payload : {}) as Record<string, unknown>;
  if (typeof p.method !== 'string' || !(MUTATING.has(p.method) || p.method === 'GET')) throw new DomainError('invalid', 'regional_write: method must be POST, PUT, PATCH, DELETE or GET');
  if (typeof p.path !== 'string' || !p.path.startsWith('/') || p.path.startsWith('//')) throw new DomainError('invalid', 'regional_write: path must be an absolute path');
  const rawHeaders = (p.headers && typeof p.headers === 'object' && !Array.isArray(p.headers) ? p.headers : {}) as Record<string, unknown>;
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) if (typeof rawHeaders[name] === 'string') headers[name] = rawHeaders[name];
  if (p.body !== null && p.body !== undefined && typeof p.body !== 'string') throw new DomainError('invalid', 'regional_write: body must be the JSON text or null');
  if (typeof p.client_ip !== 'string' || p.client_ip.length === 0 || p.client_ip.length > 64) throw new DomainError('invalid', 'regional_write: client_ip is required');
  return { method: p.method, path: p.path, headers, body: (p.body as string | null | undefined) ?? null, client_ip: p.client_ip };
}
