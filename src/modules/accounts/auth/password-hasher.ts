/**
 * argon2id password hashing. Memory cost from PASSWORD_HASH_MEMORY_KIB
 * (default 19 MiB, t=2, p=1: OWASP's baseline for argon2id).
 */
import { Inject, Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { APP_CONFIG, type AppConfig } from '../../../config/config';

@Injectable()
export class PasswordHasher {
  private readonly options: argon2.HashOptions & { raw?: false };
  /** Verified against when the user does not exist, so timing does not reveal which usernames exist. */
  private dummyHash: Promise<string> | null = null;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.options = { type: argon2.argon2id, memoryCost: config.passwordHashMemoryKib, timeCost: 2, parallelism: 1 };
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, this.options);
  }

  async verify(hash: string | null, password: string): Promise<boolean> {
    if (hash === null) {
      this.dummyHash ??= this.hash('not-a-password-of-anyone');
      await argon2.verify(await this.dummyHash, password);
      return false;
    }
    return argon2.verify(hash, password);
  }
}
