import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  participantRow,
  socialEncounterDecider,
  socialEncounterStreamId,
  type EncounterRow,
} from '../../aggregates/proximity/social-encounter';
import { CommandExecutor } from '../common/command-executor';
import { randomHex } from '../common/random-ids';
import { MATCH_RADIUS_M, proximityPairDecider, proximityPairStreamId } from '../../aggregates/proximity/proximity-pair';
import { userLocationDecider, userLocationStreamId } from '../../aggregates/proximity/user-location';
import { missedConnectionsDecider, missedConnectionsStreamId, type MissedConnectionEvent } from '../../aggregates/proximity/missed-connections';
import type { EventOfType } from '../../aggregates/shared/decider';
import { Clock } from '../../infrastructure/clock';
import {
  AcceptMissedConnectionResponse,
  AcknowledgeSocialEncounter,
  PostMissedConnection,
  RespondToMissedConnection,
  WithdrawMissedConnection,
  PingLocation,
  type PingOutcome,
  RecordSocialEncounter,
  RevealProximityMatch,
  SetLocationSharing,
} from './proximity.commands';
import { ProximityQueries } from './proximity.queries';

/** How many of the nearest people one ping tries to match. */
const MATCHES_PER_PING = 50;

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

@CommandHandler(PingLocation)
export class PingLocationHandler implements ICommandHandler<PingLocation> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: ProximityQueries,
    private readonly clock: Clock,
  ) {}

  async execute({ payload, context }: PingLocation): Promise<PingOutcome> {
    const { events, state } = await this.executor.execute(userLocationDecider, userLocationStreamId(payload.userId), { kind: 'ping', ...payload }, context);
    const now = this.clock.now();
    const here = state.lastPing ?? { lat: payload.lat, lon: payload.lon };
    const near = await this.queries.pingsNear(here, MATCH_RADIUS_M, payload.userId, now);
    if (events.length === 0) return { nearby_count: near.length, new_matches: 0, rate_limited: true };
    let newMatches = 0;
    // one pair stream each: a pair pinging at once serializes there and makes one match
    for (const { userId, meters } of near.slice(0, MATCHES_PER_PING)) {
      const outcome = await this.executor.execute(
        proximityPairDecider,
        proximityPairStreamId(payload.userId, userId),
        { kind: 'detect', userIds: [payload.userId, userId], distanceMeters: meters, newMatchId: `pm_${randomHex(12)}` },
        context,
      );
      newMatches += outcome.events.length;
    }
    return { nearby_count: near.length, new_matches: newMatches, rate_limited: false };
  }
}

@CommandHandler(SetLocationSharing)
export class SetLocationSharingHandler implements ICommandHandler<SetLocationSharing> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: SetLocationSharing): Promise<{ location_sharing_enabled: boolean }> {
    const { state } = await this.executor.execute(userLocationDecider, userLocationStreamId(payload.userId), { kind: 'setSharing', ...payload }, context);
    return { location_sharing_enabled: state.sharing };
  }
}

@CommandHandler(RevealProximityMatch)
export class RevealProximityMatchHandler implements ICommandHandler<RevealProximityMatch> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { matchId, callerId, otherUserId }, context }: RevealProximityMatch): Promise<void> {
    await this.executor.execute(proximityPairDecider, proximityPairStreamId(callerId, otherUserId), { kind: 'reveal', matchId, callerId }, context);
  }
}

@CommandHandler(PostMissedConnection)
export class PostMissedConnectionHandler implements ICommandHandler<PostMissedConnection> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: PostMissedConnection): Promise<EventOfType<MissedConnectionEvent, 'MissedConnectionPosted'>['data']> {
    const { events } = await this.executor.execute(
      missedConnectionsDecider,
      missedConnectionsStreamId(payload.posterId),
      { kind: 'post', ...payload, newId: `mc_${randomHex(12)}` },
      context,
    );
    return (events[0] as EventOfType<MissedConnectionEvent, 'MissedConnectionPosted'>).data;
  }
}

@CommandHandler(WithdrawMissedConnection)
export class WithdrawMissedConnectionHandler implements ICommandHandler<WithdrawMissedConnection> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { posterId, ...command }, context }: WithdrawMissedConnection): Promise<void> {
    await this.executor.execute(missedConnectionsDecider, missedConnectionsStreamId(posterId), { kind: 'withdraw', ...command }, context);
  }
}

@CommandHandler(RespondToMissedConnection)
export class RespondToMissedConnectionHandler implements ICommandHandler<RespondToMissedConnection> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { posterId, ...command }, context }: RespondToMissedConnection): Promise<EventOfType<MissedConnectionEvent, 'MissedConnectionResponded'>['data']> {
    const { events } = await this.executor.execute(
      missedConnectionsDecider,
      missedConnectionsStreamId(posterId),
      { kind: 'respond', ...command, newResponseId: `mcr_${randomHex(12)}` },
      context,
    );
    return (events[0] as EventOfType<MissedConnectionEvent, 'MissedConnectionResponded'>).data;
  }
}

@CommandHandler(AcceptMissedConnectionResponse)
export class AcceptMissedConnectionResponseHandler implements ICommandHandler<AcceptMissedConnectionResponse> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { posterId, ...command }, context }: AcceptMissedConnectionResponse): Promise<void> {
    await this.executor.execute(missedConnectionsDecider, missedConnectionsStreamId(posterId), { kind: 'accept', ...command }, context);
  }
}
