/** The registry routes of §20 answer only on a node run as an integrity registry (INTEGRITY_REGISTRY): 403 `Not a registry node` otherwise. */
import { type CanActivate, Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';

export const NOT_A_REGISTRY = 'Not a registry node';

@Injectable()
export class RegistryOnlyGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(): boolean {
    if (!this.config.integrity.registryMode) throw new DomainError('forbidden', NOT_A_REGISTRY);
    return true;
  }
}
