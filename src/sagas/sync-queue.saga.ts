/**
 * What this node sends up the hierarchy (social-routes §19): on a node with
 * a parent (SYNC_PARENT_URL), each post published here that is not in a
 * private community is queued as a `sync_post` item (EnqueueSyncItem), id
 * `sync_post:<post id>`, its payload the post as the parent's
 * /hierarchy/sync reads it. A redelivered event finds the item live and
 * records nothing. The SyncSender sends the queue.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { EnqueueSyncItem } from '../modules/federation/federation-sync.commands';
import { reactions } from './support/reactions';

@Injectable()
export class SyncQueueSaga implements ProcessManager {
  readonly name = 'sync-queue';
  private readonly reactions = reactions({
    PostPublished: (event) => {
      if (this.config.federation.sync.parentUrl === null || event.data.community_private) return null;
      const d = event.data;
      return new EnqueueSyncItem(
        {
          itemId: `sync_post:${d.post_id}`,
          operationType: 'sync_post',
          payload: { id: d.post_id, title: d.title, content: d.content, content_type: d.content_type, author_id: d.author_id, created_at: d.published_at },
        },
        { actor: 'system:sync-queue', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
      );
    },
  });
  readonly eventTypes = this.reactions.eventTypes;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
