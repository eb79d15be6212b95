import { deciderKit } from '../../../test/support/decider-kit';
import { type ComputeReportCommand, computeReportDecider, type ComputeReportEvent } from './compute-report';
import { type SettlementCommand, settlementDecider, type SettlementEvent } from './settlement';

const now = new Date('2026-11-22T10:00:00.000Z');

describe('compute report', () => {
  const { given } = deciderKit(computeReportDecider, now);
  const report: ComputeReportCommand = { kind: 'record', reportId: 'r1', nodeId: 'n1', gpuHours: 1.5, inferences: 10, energyKwh: 0.4, meteredApiCostUsd: 0.25 };
  const served: ComputeReportEvent = {
    type: 'ComputeServed',
    data: { report_id: 'r1', node_id: 'n1', gpu_hours: 1.5, inferences: 10, energy_kwh: 0.4, metered_api_cost_usd: 0.25, served_at: now.toISOString() },
  };

  it('given nothing, when recording, then ComputeServed', () => given().when(report).then(served));

  it('given the report was recorded, when it is sent again, then nothing more is recorded', () => given(served).when(report).thenNothing());

  it('given nothing, when recording negative hours, then it is refused as invalid', () =>
    given()
      .when({ ...report, gpuHours: -1 })
      .thenRefused('invalid', 'gpu_hours, energy_kwh and metered_api_cost_usd must be non-negative numbers'));

  it('given nothing, when recording fractional inferences, then it is refused as invalid', () =>
    given()
      .when({ ...report, inferences: 1.5 })
      .thenRefused('invalid', 'inferences must be a non-negative integer'));
});

describe('settlement', () => {
  const { given } = deciderKit(settlementDecider, now);
  const complete: SettlementCommand = { kind: 'complete' };
  const requested: SettlementEvent = {
    type: 'SettlementRequested',
    data: { settlement_id: 's1', node_id: 'n1', amount_cents: 1250, requested_at: now.toISOString() },
  };
  const completed: SettlementEvent = {
    type: 'SettlementCompleted',
    data: { settlement_id: 's1', node_id: 'n1', amount_cents: 1250, completed_at: now.toISOString() },
  };

  it('given nothing, when requesting, then SettlementRequested', () =>
    given().when({ kind: 'request', settlementId: 's1', nodeId: 'n1', amountCents: 1250 }).then(requested));

  it('given a request, then the settlement is pending for the requested amount', () =>
    expect(given(requested).state()).toEqual({ status: 'pending', settlementId: 's1', nodeId: 'n1', amountCents: 1250 }));

  it('given a request, when completed, then SettlementCompleted with the requested amount', () => given(requested).when(complete).then(completed));

  it('given a completed settlement, when completing again, then nothing is recorded', () => given(requested, completed).when(complete).thenNothing());

  it('given nothing, when completing, then not found', () => given().when(complete).thenRefused('not_found', 'settlement not found'));
});
