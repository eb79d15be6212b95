/**
 * GET /integrity/audit-coverage (social-routes §20): whether each node's
 * auditors outcompute it, i.e. could recompute what it claims. A node's
 * compute, in units, is what it last reported (POST
 * /hierarchy/report-capacity): cpu_cores + 10 × gpu_count (a report without
 * either counts 1). Its auditors are the other nodes of the regional and
 * central tiers that are not banned; it is covered when their units together
 * are at least its own.
 */
export interface CoverageNode {
  node_id: string;
  tier: string;
  compute_info: Record<string, unknown>;
  banned: boolean;
}

export interface CoverageRow {
  node_id: string;
  tier: string;
  compute_units: number;
  auditor_count: number;
  auditor_compute_units: number;
  outcomputed: boolean;
}

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

export function computeUnits(info: Record<string, unknown>): number {
  const units = count(info.cpu_cores) + 10 * count(info.gpu_count);
  return units > 0 ? units : 1;
}

const AUDITOR_TIERS = new Set(['regional', 'central']);

export function auditCoverage(nodes: CoverageNode[]): { nodes: CoverageRow[]; covered: number; uncovered: number } {
  const rows = nodes.map((node): CoverageRow => {
    const auditors = nodes.filter((other) => other.node_id !== node.node_id && !other.banned && AUDITOR_TIERS.has(other.tier));
    const units = computeUnits(node.compute_info);
    const auditorUnits = auditors.reduce((sum, a) => sum + computeUnits(a.compute_info), 0);
    return { node_id: node.node_id, tier: node.tier, compute_units: units, auditor_count: auditors.length, auditor_compute_units: auditorUnits, outcomputed: auditors.length > 0 && auditorUnits >= units };
  });
  const covered = rows.filter((r) => r.outcomputed).length;
  return { nodes: rows, covered, uncovered: rows.length - covered };
}
