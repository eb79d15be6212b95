/**
 * This node's base URL as its clients reach it, for URLs the service hands
 * out (agent cards, the contest's MCP snippet): PUBLIC_BASE_URL when
 * configured, else as the client addressed it (the Host header, validated,
 * so a forged Host cannot put another site into a reply).
 */
import type { FastifyRequest } from 'fastify';

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** This node's base URL: PUBLIC_BASE_URL when configured, else as the client addressed it (Host header, validated). */
export function baseUrlOf(request: FastifyRequest, configured: string | null): string {
  if (configured !== null) return configured;
  const forwarded = request.headers['x-forwarded-proto'];
  const proto = forwarded === 'https' || forwarded === 'http' ? forwarded : request.protocol === 'https' ? 'https' : 'http';
  const host = request.headers.host;
  return `${proto}://${typeof host === 'string' && HOST.test(host) ? host : 'localhost:6777'}`;
}
