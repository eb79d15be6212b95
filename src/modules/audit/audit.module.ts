/** Audit: the log's integrity, who did what, and read-model digests (issue 17). */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { AuditController } from './audit.controller';
import { AuditQueries } from './audit.queries';
import { AuditViewsController } from './audit-views.controller';
import { AuditViewsQueries } from './audit-views.queries';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [AuditController, AuditViewsController],
  providers: [AuditQueries, AuditViewsQueries],
})
export class AuditModule {}
