import { auditCoverage, computeUnits } from './audit-coverage';

const node = (node_id: string, tier: string, compute_info: Record<string, unknown>, banned = false) => ({ node_id, tier, compute_info, banned });

describe('audit coverage', () => {
  it('given cpu cores and gpus, then a gpu weighs 10 cores; nothing reported counts 1', () => {
    expect(computeUnits({ cpu_cores: 8, gpu_count: 1 })).toBe(18);
    expect(computeUnits({})).toBe(1);
  });

  it('given a local node smaller than the regional and central auditing it, then it is outcomputed', () => {
    const { nodes } = auditCoverage([node('c', 'central', { cpu_cores: 4 }), node('r', 'regional', { cpu_cores: 4 }), node('l', 'local', { cpu_cores: 6 })]);
    expect(nodes.find((n) => n.node_id === 'l')).toMatchObject({ auditor_count: 2, auditor_compute_units: 8, outcomputed: true });
  });

  it('given a node larger than its auditors together, then it is not covered', () => {
    const result = auditCoverage([node('c', 'central', { cpu_cores: 4 }), node('big', 'local', { gpu_count: 2 })]);
    expect(result.nodes.find((n) => n.node_id === 'big')?.outcomputed).toBe(false);
    expect(result.uncovered).toBe(2); // nobody audits central here
  });

  it('given a banned regional node, then it audits nobody', () => {
    const { nodes } = auditCoverage([node('r', 'regional', { cpu_cores: 64 }, true), node('l', 'local', { cpu_cores: 1 })]);
    expect(nodes.find((n) => n.node_id === 'l')).toMatchObject({ auditor_count: 0, outcomputed: false });
  });
});
