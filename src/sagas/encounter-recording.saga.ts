/**
 * Encounter recording (social-routes §5, §13): a comment records an
 * encounter (context `post`, the post's id) between its author and the post's
 * author, never with oneself. Each record names its comment as its source,
 * which the pair's stream remembers, so a redelivered event counts once. A
 * proximity match both sides revealed records one too (context `proximity`,
 * the match's id), and so does an accepted missed-connection response
 * (context `missed_connection`, the post's id, its place as the location
 * label, source the response).
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { RecordSocialEncounter } from '../modules/proximity/proximity.commands';
import { reactions } from './support/reactions';

@Injectable()
export class EncounterRecordingSaga implements ProcessManager {
  readonly name = 'encounter-recording';
  private readonly reactions = reactions({
    CommentPosted: (event) =>
      event.data.author_id !== event.data.post_author_id
        ? new RecordSocialEncounter(
            {
              userIds: [event.data.author_id, event.data.post_author_id],
              contextType: 'post',
              contextId: event.data.post_id,
              locationLabel: null,
              source: `comment:${event.data.comment_id}`,
            },
            { actor: 'system:encounter-recording', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
          )
        : null,
    ProximityRevealed: (event) =>
      event.data.status === 'matched'
        ? new RecordSocialEncounter(
            {
              userIds: [event.data.user_a_id, event.data.user_b_id],
              contextType: 'proximity',
              contextId: event.data.match_id,
              locationLabel: null,
              source: `match:${event.data.match_id}`,
            },
            { actor: 'system:encounter-recording', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
          )
        : null,
    MissedConnectionResponseAccepted: (event) =>
      new RecordSocialEncounter(
        {
          userIds: [event.data.poster_id, event.data.responder_id],
          contextType: 'missed_connection',
          contextId: event.data.missed_connection_id,
          locationLabel: event.data.location_name,
          source: `response:${event.data.response_id}`,
        },
        { actor: 'system:encounter-recording', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
      ),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
