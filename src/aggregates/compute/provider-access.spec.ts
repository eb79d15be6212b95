import { DomainError } from '../shared/domain-error';
import { dashboardAccess } from './provider-access';

const refusal = (run: () => unknown): DomainError | null => {
  try {
    run();
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
};

describe('provider dashboard access', () => {
  it('given an operator, when asking for its own node (named or not), then it gets that node', () => {
    expect(dashboardAccess({ kind: 'node', nodeId: null }, 'operator', 'n1')).toBe('n1');
    expect(dashboardAccess({ kind: 'node', nodeId: 'n1' }, 'operator', 'n1')).toBe('n1');
  });

  it('given an operator, when asking for another node, then it is forbidden', () =>
    expect(refusal(() => dashboardAccess({ kind: 'node', nodeId: 'n2' }, 'operator', 'n1'))).toMatchObject({
      kind: 'forbidden',
      message: 'operators see their own node only',
    }));

  it('given an operator, when asking for all nodes, then it is forbidden', () =>
    expect(refusal(() => dashboardAccess({ kind: 'all' }, 'operator', 'n1'))).toMatchObject({
      kind: 'forbidden',
      message: 'admin role required to see all nodes',
    }));

  it('given an admin, when asking for another node or all nodes, then it gets them', () => {
    expect(dashboardAccess({ kind: 'node', nodeId: 'n2' }, 'admin', 'n1')).toBe('n2');
    expect(dashboardAccess({ kind: 'all' }, 'admin', 'n1')).toBeNull();
  });
});
