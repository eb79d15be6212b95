import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  participantRow,
  socialEncounterDecider,
  socialEncounterStreamId,
  type EncounterRow,
} from '../../aggregates/proximity/social-encounter';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { AcknowledgeSocialEncounter, RecordSocialEncounter } from './proximity.commands';

@CommandHandler(RecordSocialEncounter)
export class RecordSocialEncounterHandler implements ICommandHandler<RecordSocialEncounter> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordSocialEncounter): Promise<EncounterRow | null> {
    const { events, state } = await this.executor.execute(
      socialEncounterDecider,
      socialEncounterStreamId(...payload.userIds),
      { kind: 'record', ...payload, newEncounterId: `enc_${randomHex(12)}` },
      context,
    );
    if (events.length === 0) return null;
    return participantRow(state, events[0].data.encounter_id, payload.userIds[0]);
  }
}

@CommandHandler(AcknowledgeSocialEncounter)
export class AcknowledgeSocialEncounterHandler implements ICommandHandler<AcknowledgeSocialEncounter> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { encounterId, callerId, otherUserId }, context }: AcknowledgeSocialEncounter): Promise<EncounterRow> {
    const { state } = await this.executor.execute(
      socialEncounterDecider,
      socialEncounterStreamId(callerId, otherUserId),
      { kind: 'acknowledge', encounterId, callerId },
      context,
    );
    return participantRow(state, encounterId, callerId);
  }
}
