import { deciderKit } from '../../../test/support/decider-kit';
import { CODE_HASH_MISMATCH, type RegistryNodeCommand, registryNodeDecider } from './registry-node';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const { given, history } = deciderKit(registryNodeDecider, NOW);
const KEY = 'a'.repeat(64);
const GOOD = '1'.repeat(64);
const BAD = '2'.repeat(64);

const register = (over: Partial<RegistryNodeCommand> = {}): RegistryNodeCommand => ({
  kind: 'register',
  nodeId: 'node-b',
  publicKey: KEY,
  codeHash: GOOD,
  version: '1.0.0',
  expectedHash: GOOD,
  enforcement: 'hard',
  ...over,
});

describe('a node registered with the integrity registry', () => {
  it('given nothing, when a node registers with the expected hash, then it is registered as matching', () =>
    given()
      .when(register())
      .then({ type: 'RegistryNodeRegistered', data: { node_id: 'node-b', public_key: KEY, code_hash: GOOD, version: '1.0.0', code_hash_matches: true, registered_at: NOW.toISOString() } }));

  it.each(['soft', 'hard'] as const)('given %s enforcement, when the hash is not the expected one, then it is refused', (enforcement) =>
    given().when(register({ codeHash: BAD, enforcement })).thenRefused('forbidden', CODE_HASH_MISMATCH));

  it('given enforcement off, when the hash is not the expected one, then it is registered as not matching', () =>
    expect(given().when(register({ codeHash: BAD, enforcement: 'off' })).events()[0].data.code_hash_matches).toBe(false));

  it('given no expected hash for the version, when registered, then whether it matches is unknown', () =>
    expect(given().when(register({ expectedHash: null })).events()[0].data.code_hash_matches).toBeNull());

  it('given a registered node, when the same registration comes again, then nothing is recorded', () => given(...history(register())).when(register()).thenNothing());

  it('given a registered node, when another key registers its id, then it is refused', () =>
    given(...history(register())).when(register({ publicKey: 'b'.repeat(64) })).thenRefused('conflict'));
});
