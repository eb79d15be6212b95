/**
 * The HTTP server's limits (src/config/http.config.ts) applied to Fastify and
 * to Node's server: timeouts for slow clients and caps on open connections,
 * per client address and in total. createApp applies them, so the e2e tests
 * run the production server.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpConfig } from '../../config/http.config';

/** How often Node looks for requests past their header or request timeout: often enough for short test values, at most once a second. */
export function connectionsCheckingIntervalMs(http: HttpConfig): number {
  return Math.min(1000, Math.max(25, Math.floor(http.headersTimeoutMs / 4)));
}

/** The Fastify server options of the timeouts. */
export function serverTimeoutOptions(http: HttpConfig) {
  return {
    connectionTimeout: http.idleTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    http: {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout: http.requestTimeoutMs,
      connectionsCheckingInterval: connectionsCheckingIntervalMs(http),
    },
  };
}

/**
 * Caps the open connections: in total (`server.maxConnections`: Node closes
 * a connection over it before any byte is read) and per client address (a
 * new connection over the cap is destroyed at once).
 */
export function capConnections(server: Server, http: HttpConfig): void {
  server.maxConnections = http.maxConnections;
  if (http.maxConnectionsPerIp === 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= http.maxConnectionsPerIp) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
