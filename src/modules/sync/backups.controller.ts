/**
 * The backup routes (social-routes §19), under /api/social and /social:
 * make an encrypted backup of the caller's own data, list the metadata,
 * restore what is missing (semantics in docs/api.md, crypto in
 * docs/security.md).
 */
import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { BACKUP_NOT_FOUND, NO_BACKUPS, type RestoreCounts } from '../../aggregates/sync/user-backups';
import { Authenticated } from '../accounts/auth/authenticated.guard';
import type { AuthUser } from '../accounts/auth/auth-user';
import { CurrentUser } from '../accounts/auth/current-user.decorator';
import type { CommandContext } from '../common/command-executor';
import { type Envelope, ok } from '../common/envelope';
import { EnvelopeReply, list, ReadBody, Refusal } from '../common/openapi';
import { RateLimited } from '../common/rate-limits/rate-limits';
import { RequestContext } from '../common/request-context';
import { socialPaths } from '../common/social-paths';
import { BACKUP_FILE_MISSING, WRONG_PASSPHRASE } from './backups.handlers';
import { CreateBackup, RestoreBackup } from './sync.commands';
import { type BackupView, SyncQueries } from './sync.queries';
import { BACKUP_CREATED, BACKUP_METADATA, RESTORE_COUNTS } from './sync.replies';
import { BACKUP_BODY_SCHEMA, backupRequest, PASSPHRASE_REQUIRED, PASSPHRASE_TOO_SHORT, RESTORE_BODY_SCHEMA, restoreRequest } from './sync.requests';

@Controller(socialPaths('sync'))
@Authenticated()
export class BackupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: SyncQueries,
  ) {}

  @Post('backup')
  @HttpCode(201)
  @RateLimited('backup')
  @ReadBody(BACKUP_BODY_SCHEMA)
  @EnvelopeReply(201, BACKUP_CREATED, "the caller's profile, posts, comments and votes, encrypted under the passphrase")
  @Refusal(400, `\`${PASSPHRASE_TOO_SHORT}\``)
  async backup(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<{ backup_id: string; content_hash: string; size_bytes: number }>> {
    return ok(await this.commands.execute(new CreateBackup({ userId: caller.id, ...backupRequest(body) }, context)));
  }

  @Get('backup/metadata')
  @EnvelopeReply(200, list(BACKUP_METADATA), "the caller's backups, newest first")
  async metadata(@CurrentUser() caller: AuthUser): Promise<Envelope<BackupView[]>> {
    return ok(await this.queries.backups(caller.id));
  }

  @Post('restore')
  @HttpCode(200)
  @RateLimited('backup')
  @ReadBody(RESTORE_BODY_SCHEMA)
  @EnvelopeReply(200, RESTORE_COUNTS, 'what was missing and is restored: counts, and whether the profile was set back')
  @Refusal(400, `\`${PASSPHRASE_REQUIRED}\`, \`${NO_BACKUPS}\`, \`${BACKUP_FILE_MISSING}\`, \`${WRONG_PASSPHRASE}\``)
  @Refusal(404, `\`${BACKUP_NOT_FOUND}\`: not one of the caller's backups`)
  async restore(@Body() body: unknown, @CurrentUser() caller: AuthUser, @RequestContext() context: CommandContext): Promise<Envelope<RestoreCounts>> {
    return ok(await this.commands.execute(new RestoreBackup({ userId: caller.id, role: caller.role, ...restoreRequest(body) }, context)));
  }
}
