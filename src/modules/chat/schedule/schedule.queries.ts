/** The status of a scheduled prompt, from the `scheduled_prompts` read model. */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../../infrastructure/read-store/read-store.port';
import { SCHEDULED_PROMPTS, type ScheduledPromptDoc, type ScheduledPromptDocStatus } from '../../../projections/chat/scheduled-prompts.projection';

const SCHEDULE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface ScheduleView {
  schedule_id: string;
  user_id: string;
  prompt_id: string;
  run_at: string;
  status: ScheduledPromptDocStatus;
  /** claims so far */
  attempts: number;
  scheduled_at: string;
  /** when a pending prompt is due next (run_at, or the retry time after a failed attempt) */
  next_attempt_at: string | null;
  /** the message id of the run in the conversation (= schedule_id) once completed */
  message_id: string | null;
  response_excerpt: string | null;
  completed_at: string | null;
  last_error: string | null;
}

@Injectable()
export class ScheduleQueries {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async byId(scheduleId: string): Promise<ScheduleView | null> {
    if (!SCHEDULE_ID.test(scheduleId)) return null;
    const doc = await this.readStore.collection<ScheduledPromptDoc>(SCHEDULED_PROMPTS).findOne({ _id: scheduleId });
    if (!doc) return null;
    return {
      schedule_id: doc.schedule_id,
      user_id: doc.user_id,
      prompt_id: doc.prompt_id,
      run_at: doc.run_at,
      status: doc.status,
      attempts: doc.attempts,
      scheduled_at: doc.scheduled_at,
      next_attempt_at: doc.status === 'pending' ? doc.due_at : null,
      message_id: doc.message_id,
      response_excerpt: doc.response_excerpt,
      completed_at: doc.completed_at,
      last_error: doc.last_error,
    };
  }
}
