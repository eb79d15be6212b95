/**
 * Command handlers of the encounter flow: each loads the stream that owns the
 * decision, runs the pure decider and appends (CommandExecutor), and replies
 * from the outcome (the decider's state and events), never from a read model
 * read after the write. Read models are used only to find a stream (a peer by
 * its current pubkey, a match's pair by the match id); what is decided, is
 * decided on the stream.
 */
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { activeConsents, consentDecider } from '../../aggregates/encounter/consent';
import { discoverableDecider, discoverablePreference, discoverableView, isDiscoverableAt } from '../../aggregates/encounter/discoverable';
import { encounterPairDecider, icebreakerText } from '../../aggregates/encounter/encounter-pair';
import {
  consentStreamId,
  discoverableStreamId,
  pairStreamId,
  pubkeyStreamId,
  sightingStreamId,
} from '../../aggregates/encounter/encounter.events';
import { epochSeconds } from '../../aggregates/encounter/encounter-messages';
import { pubkeyDecider, pubkeyDigest } from '../../aggregates/encounter/pubkey';
import { sightingDecider } from '../../aggregates/encounter/sighting';
import { leftIn } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { ENCOUNTER_CONFIG, type EncounterConfig } from '../../config/encounter.config';
import { Clock } from '../../infrastructure/clock';
import { randomHex } from '../common/random-ids';
import { CommandExecutor } from '../common/command-executor';
import {
  ApproveIcebreaker,
  type ConsentReply,
  DeclineIcebreaker,
  type DiscoverableReceipt,
  RecordSighting,
  RegisterPubkey,
  SetConsent,
  SetDiscoverable,
  type SightingCardReply,
  Swipe,
  type SwipeReply,
} from './encounter.commands';
import { EncounterQueries } from './encounter.queries';

const SIGHTING_ID = /^sight_[A-Za-z0-9]{1,64}$/;

/** The random part of a new sighting or match id: 96 bits, hex. */
function randomPart(): string {
  return randomHex(12);
}

@CommandHandler(SetDiscoverable)
export class SetDiscoverableHandler implements ICommandHandler<SetDiscoverable> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly clock: Clock,
    @Inject(ENCOUNTER_CONFIG) private readonly limits: EncounterConfig,
  ) {}

  async execute({ payload, context }: SetDiscoverable): Promise<DiscoverableReceipt> {
    const { state } = await this.executor.execute(
      discoverableDecider,
      discoverableStreamId(payload.userId),
      { kind: 'set', ...payload, limits: this.limits },
      context,
      // a phone retrying in a loop sends many toggles at once: each conflict is one more toggle decided
      { maxRetries: 25 },
    );
    const { enabled, expires_at, remaining_sec } = discoverableView(discoverablePreference(state), this.clock.now());
    return { enabled, expires_at, remaining_sec };
  }
}

@CommandHandler(RegisterPubkey)
export class RegisterPubkeyHandler implements ICommandHandler<RegisterPubkey> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, pubkey }, context }: RegisterPubkey): Promise<{ registered_at: number }> {
    const digest = pubkeyDigest(pubkey);
    const { state } = await this.executor.execute(pubkeyDecider, pubkeyStreamId(digest), { kind: 'register', userId, digest }, context);
    return { registered_at: epochSeconds(leftIn(state, 'registered').registeredAt) ?? 0 };
  }
}

@CommandHandler(RecordSighting)
export class RecordSightingHandler implements ICommandHandler<RecordSighting> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: EncounterQueries,
    private readonly clock: Clock,
    @Inject(ENCOUNTER_CONFIG) private readonly limits: EncounterConfig,
  ) {}

  /** Rule 6: the peer is whoever currently holds this rotating key; rule 9: only while discoverable. */
  async execute({ payload: { userId, ...request }, context }: RecordSighting): Promise<SightingCardReply> {
    const digest = pubkeyDigest(request.peerPubkey);
    const peer = await this.queries.profileByPubkeyDigest(digest);
    if (peer?.user_id === userId) throw new DomainError('invalid', 'self-sighting rejected');
    if (!peer || !isDiscoverableAt(peer, this.clock.now())) throw new DomainError('not_found', 'peer not discoverable');
    const sightingId = `sight_${randomPart()}`;
    const { state } = await this.executor.execute(
      sightingDecider,
      sightingStreamId(sightingId),
      {
        kind: 'record',
        sightingId,
        ownerUserId: userId,
        peerUserId: peer.user_id,
        peerPubkeyDigest: digest,
        rssiPeak: request.rssiPeak,
        dwellSec: request.dwellSec,
        lat: request.lat,
        lng: request.lng,
        card: { avatar_style: peer.avatar_style, vibe_tags: peer.vibe_tags, face_visible: peer.face_visible },
        limits: this.limits,
      },
      context,
      // a fresh random id: nothing to read
      { newStream: true },
    );
    const { sighting } = leftIn(state, 'recorded');
    return {
      sighting_id: sighting.sighting_id,
      peer_anon_id: request.peerPubkey.slice(0, 12),
      avatar_style: sighting.avatar_style,
      vibe_tags: sighting.vibe_tags,
      face_visible: sighting.face_visible,
      expires_at: sighting.expires_at,
    };
  }
}

/**
 * A swipe is decided on the pair's stream, where both users' likes live: two
 * mutual likes at the same instant conflict on its revision, the loser
 * re-reads and binds the one match (rules 2 and 3). The reply has one shape
 * whatever happened; only match_id differs (rule 4).
 */
@CommandHandler(Swipe)
export class SwipeHandler implements ICommandHandler<Swipe> {
  constructor(
    private readonly executor: CommandExecutor,
    @Inject(ENCOUNTER_CONFIG) private readonly limits: EncounterConfig,
  ) {}

  async execute({ payload: { userId, sightingId, decision }, context }: Swipe): Promise<SwipeReply> {
    const notFound = new DomainError('not_found', 'sighting not found');
    if (!SIGHTING_ID.test(sightingId)) throw notFound;
    const { state } = await this.executor.load(sightingDecider, sightingStreamId(sightingId));
    if (state.status !== 'recorded' || state.sighting.owner_user_id !== userId) throw notFound;
    const { sighting } = state;
    const { events } = await this.executor.execute(
      encounterPairDecider,
      pairStreamId(sighting.owner_user_id, sighting.peer_user_id),
      { kind: 'swipe', sighting, callerId: userId, decision, newMatchId: `match_${randomPart()}`, limits: this.limits },
      context,
      // many sightings of one pair may be swiped at once: conflicts are expected
      { maxRetries: 20 },
    );
    const liked = events.find((e) => e.type === 'SwipeLiked');
    return { sighting_id: sighting.sighting_id, decision, match_id: liked?.type === 'SwipeLiked' ? liked.data.match_id : null };
  }
}

@CommandHandler(ApproveIcebreaker)
export class ApproveIcebreakerHandler implements ICommandHandler<ApproveIcebreaker> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: EncounterQueries,
    @Inject(ENCOUNTER_CONFIG) private readonly limits: EncounterConfig,
  ) {}

  async execute({ payload, context }: ApproveIcebreaker): Promise<{ match_id: string; status: 'sent' }> {
    const { matchId, callerId, text } = payload;
    // 400/413 on the text come before the lookup, as in the decider
    icebreakerText(text, this.limits);
    const command = { kind: 'approveIcebreaker' as const, ...payload, limits: this.limits };
    const match = await this.queries.matchFor(matchId, callerId);
    if (!match) throw new DomainError('not_found', 'match not found');
    await this.executor.execute(encounterPairDecider, pairStreamId(match.user_a_id, match.user_b_id), command, context);
    return { match_id: matchId, status: 'sent' };
  }
}

@CommandHandler(DeclineIcebreaker)
export class DeclineIcebreakerHandler implements ICommandHandler<DeclineIcebreaker> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly queries: EncounterQueries,
  ) {}

  async execute({ payload, context }: DeclineIcebreaker): Promise<{ match_id: string; status: 'declined' }> {
    const match = await this.queries.matchFor(payload.matchId, payload.callerId);
    if (!match) throw new DomainError('not_found', 'match not found');
    await this.executor.execute(
      encounterPairDecider,
      pairStreamId(match.user_a_id, match.user_b_id),
      { kind: 'declineIcebreaker', ...payload },
      context,
    );
    return { match_id: payload.matchId, status: 'declined' };
  }
}

/** Grants or revokes one consent; the reply lists the user's consents as the command left them. */
@CommandHandler(SetConsent)
export class SetConsentHandler implements ICommandHandler<SetConsent> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { userId, consent, consentType, scope }, context }: SetConsent): Promise<ConsentReply> {
    const { state } = await this.executor.execute(
      consentDecider,
      consentStreamId(userId),
      { kind: consent ? 'grant' : 'revoke', userId, consentType, scope },
      context,
    );
    const consents = activeConsents(state);
    const active = consents.some((c) => c.consent_type === consentType && c.scope === scope);
    return { cloud_data_consent: active, consent_type: consentType, scope, consents };
  }
}
