/**
 * Referral activation (social-routes §14): a pending referral is checked
 * again whenever what the activation rule reads about the referred user may
 * have changed, that is when the user publishes a post, posts a comment, or
 * gets a vote (karma), and when the referral is recorded (an account that
 * already qualifies). The account turning 3 days old has no event: the
 * ReferralActivationSweeper checks those.
 *
 * Each reaction is a CheckReferralActivation of the user, which reads the
 * user's counts and karma once the read models hold the event; the referral's
 * stream decides (pending and the rule holds → ReferralActivated, once), so a
 * redelivered event, or a check of someone without a pending referral,
 * records nothing.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { CheckReferralActivation } from '../modules/referrals/referrals.commands';
import { reactions } from './support/reactions';

/** A check of the user's referral, on facts that include this event. */
function check(event: Pick<RecordedEvent, 'metadata' | 'position' | 'type'>, referredId: string): CheckReferralActivation {
  return new CheckReferralActivation(
    { referredId, after: { position: event.position, eventType: event.type } },
    { actor: 'system:referral-activation', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
  );
}

@Injectable()
export class ReferralActivationSaga implements ProcessManager {
  readonly name = 'referral-activation';
  private readonly reactions = reactions({
    ReferralCreated: (event) => check(event, event.data.referred_id),
    PostPublished: (event) => check(event, event.data.author_id),
    CommentPosted: (event) => check(event, event.data.author_id),
    PostVoted: (event) => check(event, event.data.target_author_id),
    CommentVoted: (event) => check(event, event.data.target_author_id),
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
