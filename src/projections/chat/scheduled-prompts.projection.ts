/**
 * `scheduledPrompts`: one document per `/time_agent` schedule in
 * `scheduled_prompts`, for the status route and for the scheduler's poll.
 *
 * - status: pending (waiting for run_at, or for retry_at after a failed
 *   attempt) | running (claimed; lease_until says until when) | completed |
 *   failed (no attempt left, or refused for good).
 * - due_at: when the prompt may be claimed next (run_at, then retry_at);
 *   always ≥ run_at, so the poll filters on {status, run_at} (indexed) and
 *   then on due_at.
 * - The prompt text is not copied here: the scheduler reads it from the
 *   stream when it claims, and the status route never shows it.
 *
 * The read model only tells the scheduler where to look: whether a prompt may
 * run is decided on its stream (src/aggregates/chat/scheduled-prompt.ts), so a
 * lagging read model costs a refused claim, never a second run. Every update
 * goes through applyOnce (position guard): replay and redelivery change nothing.
 */
import type { ScheduledPromptEvent } from '../../aggregates/chat/scheduled-prompt';
import type { RecordedEvent } from '../../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';

export const SCHEDULED_PROMPTS = 'scheduled_prompts';

export type ScheduledPromptDocStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface ScheduledPromptDoc extends Doc {
  schedule_id: string;
  user_id: string;
  prompt_id: string;
  status: ScheduledPromptDocStatus;
  run_at: string;
  due_at: string;
  lease_until: string | null;
  /** claims so far (the running attempt's number while running) */
  attempts: number;
  node_id: string | null;
  scheduled_at: string;
  message_id: string | null;
  response_excerpt: string | null;
  completed_at: string | null;
  last_error: string | null;
  failed_at: string | null;
  updated_at: string;
}

export const scheduledPromptsProjection: ProjectionDefinition = {
  name: 'scheduledPrompts',
  version: 1,
  eventTypes: ['PromptScheduled', 'ScheduledPromptClaimed', 'ScheduledPromptCompleted', 'ScheduledPromptFailed'],
  collections: [SCHEDULED_PROMPTS],
  indexes: [{ collection: SCHEDULED_PROMPTS, spec: { keys: { status: 1, run_at: 1 } } }],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const e = event as RecordedEvent & ScheduledPromptEvent;
    const id = e.data.schedule_id;
    switch (e.type) {
      case 'PromptScheduled':
        applyOnce(writer, SCHEDULED_PROMPTS, id, event, {
          $set: {
            schedule_id: id,
            user_id: e.data.user_id,
            prompt_id: e.data.prompt_id,
            status: 'pending',
            run_at: e.data.run_at,
            due_at: e.data.run_at,
            lease_until: null,
            attempts: 0,
            node_id: null,
            scheduled_at: e.data.scheduled_at,
            message_id: null,
            response_excerpt: null,
            completed_at: null,
            last_error: null,
            failed_at: null,
            updated_at: e.data.scheduled_at,
          },
        });
        return;
      case 'ScheduledPromptClaimed':
        applyOnce(
          writer,
          SCHEDULED_PROMPTS,
          id,
          event,
          { $set: { status: 'running', attempts: e.data.attempt, node_id: e.data.node_id, lease_until: e.data.lease_until, updated_at: e.data.claimed_at } },
          { upsert: false },
        );
        return;
      case 'ScheduledPromptCompleted':
        applyOnce(
          writer,
          SCHEDULED_PROMPTS,
          id,
          event,
          {
            $set: {
              status: 'completed',
              lease_until: null,
              message_id: e.data.message_id,
              response_excerpt: e.data.response_excerpt,
              completed_at: e.data.completed_at,
              updated_at: e.data.completed_at,
            },
          },
          { upsert: false },
        );
        return;
      case 'ScheduledPromptFailed': {
        const set: Record<string, unknown> = {
          status: e.data.will_retry ? 'pending' : 'failed',
          lease_until: null,
          last_error: e.data.error,
          failed_at: e.data.failed_at,
          updated_at: e.data.failed_at,
        };
        if (e.data.retry_at) set.due_at = e.data.retry_at;
        applyOnce(writer, SCHEDULED_PROMPTS, id, event, { $set: set }, { upsert: false });
        return;
      }
      default:
        return;
    }
  },
};
