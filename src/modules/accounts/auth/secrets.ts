/**
 * The service's signing secret: JWT_SECRET when set; otherwise one generated
 * on first start and kept in DATA_DIR (mode 0600), so tokens survive restarts
 * of a single node without configuration. Several nodes must share JWT_SECRET.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../../config/config';

@Injectable()
export class ServiceSecrets {
  readonly jwtSecret: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.jwtSecret = config.jwtSecret ?? ServiceSecrets.persistedSecret(config.dataDir);
  }

  /** Keyed hash for values that must be looked up by hash (recovery codes). */
  lookupHash(purpose: string, value: string): string {
    return createHmac('sha256', this.jwtSecret).update(`${purpose}:${value}`).digest('hex');
  }

  private static persistedSecret(dataDir: string): string {
    const file = join(dataDir, 'jwt-secret');
    if (existsSync(file)) return readFileSync(file, 'utf8').trim();
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
    return secret;
  }
}
