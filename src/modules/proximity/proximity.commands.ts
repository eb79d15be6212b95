/** The commands of the proximity context (social-routes §13): the durable encounter record of a pair. */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { EncounterRow, SocialEncounterCommand } from '../../aggregates/proximity/social-encounter';
import type { UserLocationCommand } from '../../aggregates/proximity/user-location';
import type { ProximityPairCommand } from '../../aggregates/proximity/proximity-pair';
import type { MissedConnectionCommand, MissedConnectionEvent } from '../../aggregates/proximity/missed-connections';
import type { EventOfType } from '../../aggregates/shared/decider';
import { DomainCommand } from '../common/domain-command';

/** Records one encounter of a pair in a context; null when its source was already recorded. */
export class RecordSocialEncounter extends DomainCommand<Omit<CommandInput<SocialEncounterCommand, 'record'>, 'newEncounterId'>, EncounterRow | null> {}

/** Marks an encounter as seen by one of its pair (is_mutual_aware); 404 for anyone else. */
export class AcknowledgeSocialEncounter extends DomainCommand<CommandInput<SocialEncounterCommand, 'acknowledge'> & { otherUserId: string }, EncounterRow> {}

export interface PingOutcome {
  nearby_count: number;
  new_matches: number;
  rate_limited: boolean;
}

/** Stores a ping (at most one per 30 s per user) and matches the user with everyone within 100 m (once per pair per 4 h). */
export class PingLocation extends DomainCommand<CommandInput<UserLocationCommand, 'ping'>, PingOutcome> {}

/** Turns location sharing on or off; off clears the stored location. */
export class SetLocationSharing extends DomainCommand<CommandInput<UserLocationCommand, 'setSharing'>, { location_sharing_enabled: boolean }> {}

/** Reveals the caller's side of a proximity match (the pair named by the match); both sides revealed: matched. */
export class RevealProximityMatch extends DomainCommand<CommandInput<ProximityPairCommand, 'reveal'> & { otherUserId: string }, void> {}

/** The poster's stream a missed-connection command runs on (found in the read model by the controller). */
interface OnPoster {
  posterId: string;
}

/** Posts a missed connection (at most 3 per UTC day per user); what was recorded. */
export class PostMissedConnection extends DomainCommand<
  Omit<CommandInput<MissedConnectionCommand, 'post'>, 'newId'>,
  EventOfType<MissedConnectionEvent, 'MissedConnectionPosted'>['data']
> {}

/** Marks the caller's missed connection inactive (the poster only). */
export class WithdrawMissedConnection extends DomainCommand<CommandInput<MissedConnectionCommand, 'withdraw'> & OnPoster, void> {}

/** Responds to someone else's active missed connection, once per user; what was recorded. */
export class RespondToMissedConnection extends DomainCommand<
  Omit<CommandInput<MissedConnectionCommand, 'respond'>, 'newResponseId'> & OnPoster,
  EventOfType<MissedConnectionEvent, 'MissedConnectionResponded'>['data']
> {}

/** The poster accepts a pending response (an encounter and 5 pulse each follow, see the sagas). */
export class AcceptMissedConnectionResponse extends DomainCommand<CommandInput<MissedConnectionCommand, 'accept'> & OnPoster, void> {}
