/**
 * Who may see which provider dashboards (SPEC §4.3): an operator sees its own
 * node only; an admin sees any node this node knows, or all of them at once.
 * Pure: the route asks before it reads.
 */
import type { Role } from '../accounts/user.events';
import { DomainError } from '../shared/domain-error';

/** What the caller asked for: every known node, or one node (null: this node). */
export type DashboardScope = { kind: 'all' } | { kind: 'node'; nodeId: string | null };

/** The node ids the scope names (null: all), or a forbidden DomainError. */
export function dashboardAccess(scope: DashboardScope, role: Role, localNodeId: string): string | null {
  if (scope.kind === 'all') {
    if (role !== 'admin') throw new DomainError('forbidden', 'admin role required to see all nodes');
    return null;
  }
  const nodeId = scope.nodeId ?? localNodeId;
  if (nodeId !== localNodeId && role !== 'admin') throw new DomainError('forbidden', 'operators see their own node only');
  return nodeId;
}
