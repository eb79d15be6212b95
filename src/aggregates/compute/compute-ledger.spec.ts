import { DomainError } from '../shared/domain-error';
import { computeReportDecider } from './compute-report';
import { settlementDecider, type SettlementEvent } from './settlement';

const now = new Date('2026-11-22T10:00:00.000Z');
const report = { kind: 'record', reportId: 'r1', nodeId: 'n1', gpuHours: 1.5, inferences: 10, energyKwh: 0.4, meteredApiCostUsd: 0.25 } as const;

describe('compute report', () => {
  it('given nothing, when recording, then ComputeServed', () => {
    expect(computeReportDecider.decide(report, computeReportDecider.initialState, now)).toEqual([
      {
        type: 'ComputeServed',
        data: { report_id: 'r1', node_id: 'n1', gpu_hours: 1.5, inferences: 10, energy_kwh: 0.4, metered_api_cost_usd: 0.25, served_at: now.toISOString() },
      },
    ]);
  });

  it('given the report was recorded, when it is sent again, then nothing more is recorded', () => {
    expect(computeReportDecider.decide(report, { recorded: true }, now)).toEqual([]);
  });

  it('given negative or fractional counts, then refused', () => {
    expect(() => computeReportDecider.decide({ ...report, gpuHours: -1 }, computeReportDecider.initialState, now)).toThrow(DomainError);
    expect(() => computeReportDecider.decide({ ...report, inferences: 1.5 }, computeReportDecider.initialState, now)).toThrow(DomainError);
  });
});

describe('settlement', () => {
  const given = (...events: SettlementEvent[]) => events.reduce(settlementDecider.evolve, settlementDecider.initialState);
  const requested = settlementDecider.decide({ kind: 'request', settlementId: 's1', nodeId: 'n1', amountCents: 1250 }, given(), now);

  it('given a request, when completed, then SettlementCompleted with the requested amount; completing again records nothing', () => {
    const completed = settlementDecider.decide({ kind: 'complete' }, given(...requested), now);
    expect(completed).toEqual([
      { type: 'SettlementCompleted', data: { settlement_id: 's1', node_id: 'n1', amount_cents: 1250, completed_at: now.toISOString() } },
    ]);
    expect(settlementDecider.decide({ kind: 'complete' }, given(...requested, ...completed), now)).toEqual([]);
  });

  it('given nothing, when completing, then not found', () => {
    expect(() => settlementDecider.decide({ kind: 'complete' }, given(), now)).toThrow(new DomainError('not_found', 'settlement not found'));
  });
});
