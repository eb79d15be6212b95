/**
 * Probes: /status (version, uptime), /health (liveness), /ready (stores, bus
 * and projections up; when not, 503 with the subsystem it waits for).
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PlatformLifecycle, type Readiness } from '../../infrastructure/platform-lifecycle';
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
  @Reply(
    503,
    obj({ ready: { const: false }, waiting_for: { enum: ['startup', 'projections', 'shutdown'] }, detail: str() }),
    'starting (waiting_for startup, then projections: the detail names the read models behind), or shutting down',
  )
  ready(@Res({ passthrough: true }) reply: FastifyReply): Readiness {
    const readiness = this.platform.readiness();
    reply.status(readiness.ready ? 200 : 503);
    return readiness;
  }
}
