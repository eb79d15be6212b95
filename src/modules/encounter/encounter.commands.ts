/**
 * Commands of the encounter context, dispatched on the @nestjs/cqrs
 * CommandBus. Each payload is typed from its decider command, or, where the
 * handler derives the decider command (a digest, the peer or the sighting
 * found first), from the request it serves; the user id comes from the token.
 */
import type { ActiveConsent } from '../../aggregates/encounter/consent';
import type { DiscoverableCommand, DiscoverableView } from '../../aggregates/encounter/discoverable';
import type { EncounterPairCommand } from '../../aggregates/encounter/encounter-pair';
import type { SwipeDecision } from '../../aggregates/encounter/encounter.events';
import type { CommandInput } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';
import type { ConsentRequest, RegisterPubkeyRequest, SightingRequest, SwipeRequest } from './encounter.requests';

interface ByUser {
  userId: string;
}

export type DiscoverableReceipt = Pick<DiscoverableView, 'enabled' | 'expires_at' | 'remaining_sec'>;

export interface SightingCardReply {
  sighting_id: string;
  peer_anon_id: string;
  avatar_style: string;
  vibe_tags: string[];
  face_visible: boolean;
  expires_at: string;
}

export interface SwipeReply {
  sighting_id: string;
  decision: SwipeDecision;
  match_id: string | null;
}

export interface ConsentReply {
  /** whether the named consent (PUT) or any cloud-drafting consent (GET) is active */
  cloud_data_consent: boolean;
  consent_type?: string;
  scope?: string;
  consents: ActiveConsent[];
}

export class SetDiscoverable extends DomainCommand<Omit<CommandInput<DiscoverableCommand, 'set'>, 'limits'>, DiscoverableReceipt> {}

export class RegisterPubkey extends DomainCommand<RegisterPubkeyRequest & ByUser, { registered_at: number }> {}

export class RecordSighting extends DomainCommand<SightingRequest & ByUser, SightingCardReply> {}

export class Swipe extends DomainCommand<SwipeRequest & ByUser, SwipeReply> {}

export class ApproveIcebreaker extends DomainCommand<
  Omit<CommandInput<EncounterPairCommand, 'approveIcebreaker'>, 'limits'>,
  { match_id: string; status: 'sent' }
> {}

export class DeclineIcebreaker extends DomainCommand<
  CommandInput<EncounterPairCommand, 'declineIcebreaker'>,
  { match_id: string; status: 'declined' }
> {}

export class SetConsent extends DomainCommand<ConsentRequest & ByUser, ConsentReply> {}
