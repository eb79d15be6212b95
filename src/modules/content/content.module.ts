/**
 * The content context (social-routes §4–§7, §12): posts, comments, votes,
 * communities, feeds, reports and moderation of content.
 */
import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CommonModule } from '../common/common.module';
import { CommentsController } from './comments.controller';
import { CommunitiesController } from './communities.controller';
import {
  CastVoteHandler,
  CreateCommunityHandler,
  DeleteCommentHandler,
  DeletePostHandler,
  EditCommentHandler,
  EditPostHandler,
  FileReportHandler,
  GrantRewardHandler,
  HideCommentHandler,
  JoinCommunityHandler,
  LeaveCommunityHandler,
  PostCommentHandler,
  PublishPostHandler,
  ReviewReportHandler,
  SetCommunityRoleHandler,
  SetPostHiddenHandler,
  TogglePostLockHandler,
  TogglePostPinHandler,
  UpdateCommunityHandler,
} from './content.handlers';
import { ContentQueries } from './content.queries';
import { FeedController } from './feed.controller';
import { FeedImportController } from './feed-import.controller';
import { FeedSubscriptionsController } from './feed-subscriptions.controller';
import { CancelFeedSubscriptionHandler, RecordFeedPollHandler, SubscribeToFeedHandler } from './feed-subscriptions.handlers';
import { FeedSubscriptionQueries } from './feed-subscriptions.queries';
import { ModerationController } from './moderation.controller';
import { PostsController } from './posts.controller';
import { SearchController } from './search.controller';
import { SyndicationController } from './syndication.controller';

@Module({
  imports: [CommonModule, AccountsModule],
  controllers: [PostsController, CommentsController, CommunitiesController, FeedController, ModerationController, SearchController, SyndicationController, FeedImportController, FeedSubscriptionsController],
  providers: [
    ContentQueries,
    FeedSubscriptionQueries,
    SubscribeToFeedHandler,
    CancelFeedSubscriptionHandler,
    RecordFeedPollHandler,
    PublishPostHandler,
    EditPostHandler,
    DeletePostHandler,
    SetPostHiddenHandler,
    TogglePostPinHandler,
    TogglePostLockHandler,
    CastVoteHandler,
    PostCommentHandler,
    EditCommentHandler,
    DeleteCommentHandler,
    HideCommentHandler,
    FileReportHandler,
    GrantRewardHandler,
    ReviewReportHandler,
    CreateCommunityHandler,
    UpdateCommunityHandler,
    JoinCommunityHandler,
    LeaveCommunityHandler,
    SetCommunityRoleHandler,
  ],
  exports: [ContentQueries, FeedSubscriptionQueries],
})
export class ContentModule {}
