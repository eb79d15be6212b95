/**
 * One report of compute a node served (stream `computeReport-<reportId>`).
 * The report id is the idempotency key: sending the same report twice records
 * it once. Until the serving subsystem exists, operators report through
 * POST /api/settings/compute/provider/served.
 */
import type { Decider } from '../shared/decider';
import { DomainError, assertNever } from '../shared/domain-error';

export type ComputeReportEvent = {
  type: 'ComputeServed';
  data: {
    report_id: string;
    node_id: string;
    gpu_hours: number;
    inferences: number;
    energy_kwh: number;
    metered_api_cost_usd: number;
    served_at: string;
  };
};

export interface ComputeReportState {
  recorded: boolean;
}

export type ComputeReportCommand = {
  kind: 'record';
  reportId: string;
  nodeId: string;
  gpuHours: number;
  inferences: number;
  energyKwh: number;
  meteredApiCostUsd: number;
};

export function computeReportStreamId(reportId: string): string {
  return `computeReport-${reportId}`;
}

const nonNegative = (n: number) => typeof n === 'number' && Number.isFinite(n) && n >= 0;

export const computeReportDecider: Decider<ComputeReportState, ComputeReportCommand, ComputeReportEvent> = {
  initialState: { recorded: false },
  evolve(_state, event) {
    switch (event.type) {
      case 'ComputeServed':
        return { recorded: true };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    if (state.recorded) return [];
    if (![command.gpuHours, command.energyKwh, command.meteredApiCostUsd].every(nonNegative)) {
      throw new DomainError('invalid', 'gpu_hours, energy_kwh and metered_api_cost_usd must be non-negative numbers');
    }
    if (!Number.isSafeInteger(command.inferences) || command.inferences < 0) {
      throw new DomainError('invalid', 'inferences must be a non-negative integer');
    }
    return [
      {
        type: 'ComputeServed',
        data: {
          report_id: command.reportId,
          node_id: command.nodeId,
          gpu_hours: command.gpuHours,
          inferences: command.inferences,
          energy_kwh: command.energyKwh,
          metered_api_cost_usd: command.meteredApiCostUsd,
          served_at: now.toISOString(),
        },
      },
    ];
  },
};
