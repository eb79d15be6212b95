/** `reports`: the Report record of social-routes §0.5, newest first, filtered by status (§12). */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const REPORTS = 'reports';

export interface ReportDoc extends Doc {
  id: string;
  reporter_id: string;
  target_type: string;
  target_id: string;
  reason: string;
  details: string | null;
  status: string;
  moderator_id: string | null;
  created_at: string;
}

export const reportsProjection = defineProjection({
  name: 'reports',
  version: 1,
  collections: [REPORTS],
  indexes: [
    { collection: REPORTS, spec: { keys: { created_at: -1 } } },
    { collection: REPORTS, spec: { keys: { status: 1, created_at: -1 } } },
  ],
  on: {
    ReportFiled: (event, writer) => {
      const { report_id, filed_at, ...rest } = event.data;
      applyOnce(writer, REPORTS, report_id, event, { $set: { id: report_id, ...rest, status: 'pending', moderator_id: null, created_at: filed_at } });
    },
    ReportReviewed: (event, writer) =>
      applyOnce(writer, REPORTS, event.data.report_id, event, { $set: { status: event.data.status, moderator_id: event.data.moderator_id } }, { upsert: false }),
  },
});
