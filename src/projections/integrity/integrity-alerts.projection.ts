/**
 * `integrityAlerts`: one document per alert an audit raised against a node
 * (social-routes §20's alert record), `_id` the alert id, in
 * `integrity_alerts`; listed newest first by GET /integrity/alerts and
 * reviewed with PATCH /integrity/alerts/{id}.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const INTEGRITY_ALERTS = 'integrity_alerts';

export interface IntegrityAlertDoc extends Doc {
  node_id: string;
  alert_type: string;
  severity: string;
  description: string;
  evidence: Record<string, unknown>;
  fraud_score_delta: number;
  status: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  created_at: string;
}

export const integrityAlertsProjection = defineProjection({
  name: 'integrityAlerts',
  version: 1,
  collections: [INTEGRITY_ALERTS],
  indexes: [
    { collection: INTEGRITY_ALERTS, spec: { keys: { created_at: -1 } } },
    { collection: INTEGRITY_ALERTS, spec: { keys: { node_id: 1, created_at: -1 } } },
  ],
  on: {
    IntegrityAlertRaised: (event, writer) => {
      const d = event.data;
      applyOnce(writer, INTEGRITY_ALERTS, d.alert_id, event, {
        $set: {
          node_id: d.node_id,
          alert_type: d.alert_type,
          severity: d.severity,
          description: d.description,
          evidence: d.evidence,
          fraud_score_delta: d.fraud_score_delta,
          status: 'open',
          reviewed_by: null,
          reviewed_at: null,
          created_at: d.raised_at,
        },
      });
    },
    IntegrityAlertReviewed: (event, writer) => {
      const d = event.data;
      applyOnce(writer, INTEGRITY_ALERTS, d.alert_id, event, { $set: { status: d.status, reviewed_by: d.reviewed_by, reviewed_at: d.reviewed_at } }, { upsert: false });
    },
  },
});
