/**
 * GET /.well-known/<brand>-social.json (social-routes §22, "Discovery"): the
 * platform descriptor, public. The original's brand word is not part of the
 * contract we were given, so every `<word>-social.json` answers with this
 * node's descriptor (its own brand, SOCIAL_BRAND, is the `name`); any other
 * file under /.well-known is a 404.
 */
import { Controller, Get, Inject, Param } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { PathParam, Refusal, Reply } from '../common/openapi';
import { type PlatformDescriptor, platformDescriptor } from './discovery';
import { PLATFORM_DESCRIPTOR } from './federation.replies';

const DESCRIPTOR_FILE = /^[a-z0-9][a-z0-9-]{0,62}-social\.json$/;

@Controller('.well-known')
export class DiscoveryController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get(':file')
  @PathParam('file', { type: 'string', pattern: DESCRIPTOR_FILE.source, examples: ['agent-platform-social.json'] })
  @Reply(200, PLATFORM_DESCRIPTOR)
  @Refusal(404, '`Not found`: a file under /.well-known other than `<brand>-social.json`')
  descriptor(@Param('file') file: string): PlatformDescriptor {
    if (!DESCRIPTOR_FILE.test(file)) throw new DomainError('not_found', 'Not found');
    return platformDescriptor(this.config);
  }
}
