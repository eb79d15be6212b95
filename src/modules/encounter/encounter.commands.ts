/** Commands of the encounter context, dispatched on the @nestjs/cqrs CommandBus. */
import { Command } from '@nestjs/cqrs';
import type { DiscoverableView } from '../../aggregates/encounter/discoverable';
import type { SwipeDecision } from '../../aggregates/encounter/encounter.events';
import type { CommandContext } from '../common/command-executor';
import type { DiscoverableRequest, SightingRequest } from './encounter-requests';

export type DiscoverableReceipt = Pick<DiscoverableView, 'enabled' | 'expires_at' | 'remaining_sec'>;

export class SetDiscoverable extends Command<DiscoverableReceipt> {
  constructor(
    readonly userId: string,
    readonly request: DiscoverableRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class RegisterPubkey extends Command<{ registered_at: number }> {
  constructor(
    readonly userId: string,
    readonly pubkey: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export interface SightingCardReply {
  sighting_id: string;
  peer_anon_id: string;
  avatar_style: string;
  vibe_tags: string[];
  face_visible: boolean;
  expires_at: string;
}

export class RecordSighting extends Command<SightingCardReply> {
  constructor(
    readonly userId: string,
    readonly request: SightingRequest,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export interface SwipeReply {
  sighting_id: string;
  decision: SwipeDecision;
  match_id: string | null;
}

export class Swipe extends Command<SwipeReply> {
  constructor(
    readonly userId: string,
    readonly sightingId: string,
    readonly decision: SwipeDecision,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class ApproveIcebreaker extends Command<{ match_id: string; status: 'sent' }> {
  constructor(
    readonly userId: string,
    readonly matchId: string,
    readonly text: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class DeclineIcebreaker extends Command<{ match_id: string; status: 'declined' }> {
  constructor(
    readonly userId: string,
    readonly matchId: string,
    readonly reason: string | null,
    readonly context: CommandContext,
  ) {
    super();
  }
}

export class SetConsent extends Command<void> {
  constructor(
    readonly userId: string,
    readonly consent: boolean,
    readonly consentType: string,
    readonly scope: string,
    readonly context: CommandContext,
  ) {
    super();
  }
}
