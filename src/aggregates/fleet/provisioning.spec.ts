import { deciderKit } from '../../../test/support/decider-kit';
import { type DeployRequest, PROVISIONED_NODE_NOT_FOUND, type ProvisioningCommand, provisioningDecider } from './provisioning';

const { given, history, after } = deciderKit(provisioningDecider, new Date('2026-12-07T12:00:00.000Z'));
const request: DeployRequest = { target_host: 'node7.lan', ssh_user: 'root', ssh_key_path: null, join_peer: null, backend_port: 6777, no_vision: false, no_llm: true };
const record: ProvisioningCommand = { kind: 'record', request, by: 'admin-1' };

describe('provisioned node records', () => {
  it('given two records, then they get the ids 1 and 2', () => expect(after(record, record).lastId).toBe(2));

  it('given a deploy, then its plan is argument arrays with the host as one argument, never a shell string', () => {
    const [event] = given().when({ kind: 'record', request: { ...request, target_host: 'host;rm -rf /' }, by: 'a' }).events();
    if (event.type !== 'ProvisionedNodeRecorded') throw new Error('expected a record');
    for (const step of event.data.plan) expect(step.argv.filter((arg) => arg.includes('rm -rf'))).toEqual(['root@host;rm -rf /']);
    expect(event.data.plan[1].argv).toContain('--no-llm');
  });

  it('given a record, when deleted, then it is decommissioned; deleting again records nothing', () => {
    given(...history(record)).when({ kind: 'decommission', id: 1, by: 'a' }).then({ type: 'ProvisionedNodeDecommissioned', data: { id: 1, decommissioned_by: 'a', decommissioned_at: '2026-12-07T12:00:00.000Z' } });
    given(...history(record, { kind: 'decommission', id: 1, by: 'a' })).when({ kind: 'decommission', id: 1, by: 'a' }).thenNothing();
  });

  it('given no such record, when deleted or updated, then 404', () => {
    given().when({ kind: 'decommission', id: 9, by: 'a' }).thenRefused('not_found', PROVISIONED_NODE_NOT_FOUND);
    given().when({ kind: 'planUpdate', id: 9, by: 'a' }).thenRefused('not_found', PROVISIONED_NODE_NOT_FOUND);
  });
});
