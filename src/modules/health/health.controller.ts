/** Probes: /status (version, uptime), /health (liveness), /ready (stores, bus and projections up). */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PlatformLifecycle } from '../../infrastructure/platform-lifecycle';
import { int, obj, Reply, str } from '../common/openapi';

const startedAt = Date.now();

@Controller()
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly platform: PlatformLifecycle,
  ) {}

  @Get('status')
  @Reply(200, obj({ status: { const: 'ok' }, version: str(), uptime_seconds: int(), node_id: str(), node_tier: str() }))
  status(): { status: string; version: string; uptime_seconds: number; node_id: string; node_tier: string } {
    return {
      status: 'ok',
      version: this.config.version,
      uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
      node_id: this.config.nodeId,
      node_tier: this.config.nodeTier,
    };
  }

  @Get('health')
  @Reply(200, obj({ status: { const: 'alive' } }), 'the process is alive')
  health(): { status: string } {
    return { status: 'alive' };
  }

  @Get('ready')
  @Reply(200, obj({ ready: { const: true } }), 'stores, bus and projections are up')
  @Reply(503, obj({ ready: { const: false } }), 'starting, or shutting down')
  ready(@Res({ passthrough: true }) reply: FastifyReply): { ready: boolean } {
    const ready = this.platform.isReady();
    reply.status(ready ? 200 : 503);
    return { ready };
  }
}
