/**
 * Probes: /status (version, uptime), /health (liveness), /ready (stores, bus
 * and projections up; when not, 503 with the subsystem it waits for).
 */
import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PlatformLifecycle, type Readiness } from '../../infrastructure/platform-lifecycle';

const startedAt = Date.now();

@Controller()
export class HealthController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly platform: PlatformLifecycle,
  ) {}

  @Get('status')
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
  health(): { status: string } {
    return { status: 'alive' };
  }

  @Get('ready')
  ready(@Res({ passthrough: true }) reply: FastifyReply): Readiness {
    const readiness = this.platform.readiness();
    reply.status(readiness.ready ? 200 : 503);
    return readiness;
  }
}
