/**
 * Contest scoring: turns scoring events into spark awards (SPEC §2.7).
 *
 * The saga sees every recorded event at least once (also after a restart), so
 * each award names its source (scoring event type + source id, or the join)
 * and the wallet pays a source once. What counts, and how much, is
 * `scoreFor` (src/aggregates/contest/scoring.ts): weights per track, the
 * attestation rule, the contest window, the 0.7 success threshold.
 *
 * SCORING_SOURCES below is the one table of which recorded events score and
 * how their data reads. `ScoringEventReported` comes from the ingestion route;
 * internal events of future subsystems get a row here (RecipePublished is
 * wired for the app marketplace; the same recipe reported through the route
 * and published internally pays once, because both name the same source).
 */
import { Inject, Injectable } from '@nestjs/common';
import { type ICommand, type IEvent, Saga } from '@nestjs/cqrs';
import { EMPTY, mergeMap, type Observable, of } from 'rxjs';
import { isTrack, type ScoringEventType, scoreFor } from '../aggregates/contest/scoring';
import { joinAward } from '../aggregates/contest/wallet';
import { CONTEST_CONFIG, type ContestConfig } from '../config/contest.config';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import { ofRecordedType } from '../infrastructure/sagas/recorded-event';
import { AwardSpark } from '../modules/contest/contest.commands';

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

/** Recorded event type → how to read its scoring facts (null: not a scoring event). */
export const SCORING_SOURCES: Readonly<Record<string, (e: RecordedEvent) => ScoringFacts | null>> = {
  ScoringEventReported: (e) => {
    const userId = str(e.data.user_id);
    const sourceId = str(e.data.source_id);
    if (!userId || !sourceId) return null;
    return {
      eventType: e.data.event_type as ScoringEventType,
      userId,
      sourceId,
      attested: e.data.attested === true,
      successRate: rate(e.data.success_rate),
      occurredAt: time(e.data.occurred_at, e.metadata.occurredAt),
    };
  },
  // App marketplace (not built yet): expected data {recipe_id, user_id, attested, published_at}.
  RecipePublished: (e) => {
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
  },
};

function systemContext(e: RecordedEvent) {
  return { actor: 'system:contest-scoring', correlationId: e.metadata.correlationId, causationId: e.metadata.eventId };
}

/** The award a recorded event earns, or null. Pure apart from the window it is given. */
export function awardFor(e: RecordedEvent, window: ContestConfig): AwardSpark | null {
  if (e.type === 'ContestJoined') {
    const userId = str(e.data.user_id);
    if (!userId || !isTrack(e.data.track)) return null;
    return new AwardSpark(joinAward(userId, e.data.track), systemContext(e));
  }
  const read = SCORING_SOURCES[e.type];
  const facts = read ? read(e) : null;
  if (!facts) return null;
  const score = scoreFor(facts, window);
  if (!score) return null;
  const { userId, eventType, sourceId } = facts;
  return new AwardSpark({ userId, tracks: score.tracks, sourceType: eventType, sourceId, reason: eventType }, systemContext(e));
}

@Injectable()
export class ContestScoringSaga {
  constructor(@Inject(CONTEST_CONFIG) private readonly window: ContestConfig) {}

  @Saga()
  scoring = (events$: Observable<IEvent>): Observable<ICommand> =>
    events$.pipe(
      ofRecordedType('ContestJoined', ...Object.keys(SCORING_SOURCES)),
      mergeMap((event) => {
        const command = awardFor(event.recorded, this.window);
        return command ? of(command) : EMPTY;
      }),
    );
}
