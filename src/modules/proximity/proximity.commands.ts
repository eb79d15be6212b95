/** The commands of the proximity context (social-routes §13): the durable encounter record of a pair. */
import type { CommandInput } from '../../aggregates/shared/decider';
import type { EncounterRow, SocialEncounterCommand } from '../../aggregates/proximity/social-encounter';
import { DomainCommand } from '../common/domain-command';

/** Records one encounter of a pair in a context; null when its source was already recorded. */
export class RecordSocialEncounter extends DomainCommand<Omit<CommandInput<SocialEncounterCommand, 'record'>, 'newEncounterId'>, EncounterRow | null> {}

/** Marks an encounter as seen by one of its pair (is_mutual_aware); 404 for anyone else. */
export class AcknowledgeSocialEncounter extends DomainCommand<CommandInput<SocialEncounterCommand, 'acknowledge'> & { otherUserId: string }, EncounterRow> {}
