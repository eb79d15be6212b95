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
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

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

/** Later steps never create a document: a prompt is scheduled before anything happens to it (log order). */
const change = (writer: ProjectionWriter, scheduleId: string, event: { position: number }, set: Record<string, unknown>): void =>
  applyOnce(writer, SCHEDULED_PROMPTS, scheduleId, event, { $set: set }, { upsert: false });

export const scheduledPromptsProjection = defineProjection({
  name: 'scheduledPrompts',
  version: 1,
  collections: [SCHEDULED_PROMPTS],
  indexes: [{ collection: SCHEDULED_PROMPTS, spec: { keys: { status: 1, run_at: 1 } } }],
  on: {
    PromptScheduled: (event, writer) => {
      const d = event.data;
      applyOnce(writer, SCHEDULED_PROMPTS, d.schedule_id, event, {
        $set: {
          schedule_id: d.schedule_id,
          user_id: d.user_id,
          prompt_id: d.prompt_id,
          status: 'pending',
          run_at: d.run_at,
          due_at: d.run_at,
          lease_until: null,
          attempts: 0,
          node_id: null,
          scheduled_at: d.scheduled_at,
          message_id: null,
          response_excerpt: null,
          completed_at: null,
          last_error: null,
          failed_at: null,
          updated_at: d.scheduled_at,
        },
      });
    },
    ScheduledPromptClaimed: (event, writer) => {
      const d = event.data;
      change(writer, d.schedule_id, event, { status: 'running', attempts: d.attempt, node_id: d.node_id, lease_until: d.lease_until, updated_at: d.claimed_at });
    },
    ScheduledPromptCompleted: (event, writer) => {
      const d = event.data;
      change(writer, d.schedule_id, event, {
        status: 'completed',
        lease_until: null,
        message_id: d.message_id,
        response_excerpt: d.response_excerpt,
        completed_at: d.completed_at,
        updated_at: d.completed_at,
      });
    },
    ScheduledPromptFailed: (event, writer) => {
      const d = event.data;
      const set: Record<string, unknown> = {
        status: d.will_retry ? 'pending' : 'failed',
        lease_until: null,
        last_error: d.error,
        failed_at: d.failed_at,
        updated_at: d.failed_at,
      };
      if (d.retry_at) set.due_at = d.retry_at;
      change(writer, d.schedule_id, event, set);
    },
  },
});
