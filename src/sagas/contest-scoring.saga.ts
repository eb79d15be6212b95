/**
 * Contest scoring: turns scoring events into spark awards (SPEC §2.7).
 *
 * The saga sees every recorded event at least once (also after a restart), so
 * each award names its source (scoring event type + source id, or the join)
 * and the wallet pays a source once. What counts, and how much, is
 * `scoreFor` (src/aggregates/contest/scoring.ts): weights per track, the
 * attestation rule, the contest window, the 0.7 success threshold.
 *
 * The reactions below are the one table of which recorded events score and
 * how their data reads. `ScoringEventReported` comes from the ingestion route;
 * internal events of future subsystems get a reaction here (RecipePublished
 * is wired for the app marketplace, outside the event catalogue until it is
 * built; the same recipe reported through the route and published internally
 * pays once, because both name the same source).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { isTrack, type ScoringEventType, scoreFor } from '../aggregates/contest/scoring';
import { joinAward } from '../aggregates/contest/wallet';
import { CONTEST_CONFIG, type ContestWindow } from '../config/contest.config';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { AwardSpark } from '../modules/contest/contest.commands';
import type { RecordedOf } from '../projections/support/define-projection';
import { reactions } from './support/reactions';

/** What a scoring event says, whatever subsystem recorded it. */
export interface ScoringFacts {
  eventType: ScoringEventType;
  userId: string;
  sourceId: string;
  attested: boolean;
  successRate: number | null;
  occurredAt: Date;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.length > 0 ? v : null);
const rate = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const time = (v: unknown, fallback: string): Date => {
  const d = new Date(str(v) ?? fallback);
  return Number.isNaN(d.getTime()) ? new Date(fallback) : d;
};

/** The facts of a ScoringEventReported (the ingestion route), or null when it names no user or source. */
function reportedFacts(e: RecordedOf<'ScoringEventReported'>): ScoringFacts | null {
  const userId = str(e.data.user_id);
  const sourceId = str(e.data.source_id);
  if (!userId || !sourceId) return null;
  return {
    eventType: e.data.event_type,
    userId,
    sourceId,
    attested: e.data.attested === true,
    successRate: rate(e.data.success_rate),
    occurredAt: time(e.data.occurred_at, e.metadata.occurredAt),
  };
}

/** App marketplace (not built yet): expected data {recipe_id, user_id, attested, published_at}. */
function publishedFacts(e: RecordedEvent): ScoringFacts | null {
  const userId = str(e.data.user_id);
  const sourceId = str(e.data.recipe_id);
  if (!userId || !sourceId) return null;
  return {
    eventType: 'recipe_published',
    userId,
    sourceId,
    attested: e.data.attested === true,
    successRate: null,
    occurredAt: time(e.data.published_at, e.metadata.occurredAt),
  };
}

/** Who awards: the system, caused by the recorded event. */
function systemContext(e: Pick<RecordedEvent, 'metadata'>) {
  return { actor: 'system:contest-scoring', correlationId: e.metadata.correlationId, causationId: e.metadata.eventId };
}

/** The 1-spark join award, on the joined track. */
function joinedAward(e: RecordedOf<'ContestJoined'>): AwardSpark | null {
  const userId = str(e.data.user_id);
  if (!userId || !isTrack(e.data.track)) return null;
  return new AwardSpark(joinAward(userId, e.data.track), systemContext(e));
}

/** The award of a scoring event inside the window, or null. */
function scoringAward(e: Pick<RecordedEvent, 'metadata'>, facts: ScoringFacts | null, window: ContestWindow): AwardSpark | null {
  const score = facts ? scoreFor(facts, window) : null;
  if (!facts || !score) return null;
  const { userId, eventType, sourceId } = facts;
  return new AwardSpark({ userId, tracks: score.tracks, sourceType: eventType, sourceId, reason: eventType }, systemContext(e));
}

@Injectable()
export class ContestScoringSaga implements ProcessManager {
  readonly name = 'contest-scoring';
  private readonly reactions = reactions(
    {
      ContestJoined: (event) => joinedAward(event),
      ScoringEventReported: (event) => scoringAward(event, reportedFacts(event), this.window),
    },
    { RecipePublished: (event) => scoringAward(event, publishedFacts(event), this.window) },
  );
  readonly eventTypes = this.reactions.eventTypes;

  constructor(@Inject(CONTEST_CONFIG) private readonly window: ContestWindow) {}

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
