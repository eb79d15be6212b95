import { FLEET_COMMAND_TYPES, fleetCommand } from './fleet-command';
import { DomainError } from '../shared/domain-error';

const fields = { command_id: 'c1', target_node_id: 'n1', params: {}, issued_by: 'central', signature: null, created_at: '2026-12-07T00:00:00.000Z' };

describe('fleet command records', () => {
  it.each(FLEET_COMMAND_TYPES)('given the fixed type %s, then a record is made', (type) => expect(fleetCommand({ ...fields, cmd_type: type }).cmd_type).toBe(type));

  it('given any other type, then it is refused as invalid', () => {
    expect(() => fleetCommand({ ...fields, cmd_type: 'rm_rf' })).toThrow(DomainError);
    expect(() => fleetCommand({ ...fields, cmd_type: 'rm_rf' })).toThrow('Unknown fleet command type: rm_rf');
  });
});
