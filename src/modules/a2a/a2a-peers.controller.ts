/**
 * GET /a2a/peers (admins and operators): each configured gateway
 * (A2A_GATEWAY_URLS) probed for an agent card at `/.well-known/agent.json`,
 * at once and each bounded by A2A_PROBE_TIMEOUT_MS; SSRF rules in
 * gateway-probe.ts.
 */
import { Controller, Get, Inject } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import { Reply } from '../common/openapi';
import { probeGateway, type ProbeOutcome } from './gateway-probe';
import { PEERS_REPLY } from './a2a.replies';

@Controller('a2a')
@Authenticated('admin', 'operator')
export class A2aPeersController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('peers')
  @Reply(200, PEERS_REPLY, 'every configured gateway: its agent card when it is an A2A peer, else why not')
  async peers(): Promise<{ peers: ProbeOutcome[] }> {
    const { gatewayUrls, probeTimeoutMs, probeAllowPrivate } = this.config.a2a;
    return { peers: await Promise.all(gatewayUrls.map((gateway) => probeGateway(gateway, { timeoutMs: probeTimeoutMs, allowPrivate: probeAllowPrivate }))) };
  }
}
