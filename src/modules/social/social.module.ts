/** The social platform's accounts side (social-routes §2, §11, §12): users, follows, handles, notifications, admin of accounts. */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { NotificationsController } from './notifications.controller';
import { SocialAdminController } from './social-admin.controller';
import {
  AdminUpdateUserHandler,
  AnonymizeUserHandler,
  ChangeHandleHandler,
  FollowUserHandler,
  MarkAllNotificationsReadHandler,
  MarkNotificationsReadHandler,
  SetUserBanHandler,
  UnfollowUserHandler,
  UpdateProfileHandler,
} from './social.handlers';
import { SocialQueries } from './social.queries';
import { UsersController } from './users.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [UsersController, NotificationsController, SocialAdminController],
  providers: [
    SocialQueries,
    FollowUserHandler,
    UnfollowUserHandler,
    UpdateProfileHandler,
    ChangeHandleHandler,
    AnonymizeUserHandler,
    SetUserBanHandler,
    AdminUpdateUserHandler,
    MarkNotificationsReadHandler,
    MarkAllNotificationsReadHandler,
  ],
})
export class SocialModule {}
