/**
 * A node registered with this node as an integrity registry (social-routes
 * §20, POST /integrity/register-node; registry mode only), stream
 * `registryNode-<nodeId>`: its Ed25519 key, the code hash and version it
 * reports, and whether that hash is the one expected for its version.
 *
 * - Under `soft` or `hard` enforcement a hash other than the expected one is
 *   refused (403 `Code hash mismatch`); under `off` it is recorded with
 *   `code_hash_matches: false` (an audit then raises an alert).
 * - The key is fixed by the first registration: another key is refused
 *   (409 `Node is registered with another key`), as in the federation registry.
 * - Registering again with the same key, hash and version records nothing.
 */
import type { Decider, DomainEvent } from '../shared/decider';
import { assertNever, DomainError } from '../shared/domain-error';

export const ENFORCEMENT_MODES = ['off', 'soft', 'hard'] as const;
export type EnforcementMode = (typeof ENFORCEMENT_MODES)[number];

export type RegistryNodeRegistered = DomainEvent<
  'RegistryNodeRegistered',
  {
    node_id: string;
    public_key: string;
    code_hash: string | null;
    version: string | null;
    /** null when no hash is expected for the version (or none was reported) */
    code_hash_matches: boolean | null;
    registered_at: string;
  }
>;
export type RegistryNodeEvent = RegistryNodeRegistered;

export const registryNodeStreamId = (nodeId: string): string => `registryNode-${nodeId}`;

export type RegistryNodeState = { status: 'unknown' } | { status: 'registered'; publicKey: string; codeHash: string | null; version: string | null };

export type RegistryNodeCommand = {
  kind: 'register';
  nodeId: string;
  publicKey: string;
  codeHash: string | null;
  version: string | null;
  /** the hash this registry expects for `version`, or null when it knows none */
  expectedHash: string | null;
  enforcement: EnforcementMode;
};

export const CODE_HASH_MISMATCH = 'Code hash mismatch';

export const registryNodeDecider: Decider<RegistryNodeState, RegistryNodeCommand, RegistryNodeEvent> = {
  initialState: { status: 'unknown' },
  evolve(_state, event) {
    switch (event.type) {
      case 'RegistryNodeRegistered':
        return { status: 'registered', publicKey: event.data.public_key, codeHash: event.data.code_hash, version: event.data.version };
      default:
        return assertNever(event.type);
    }
  },
  decide(command, state, now) {
    switch (command.kind) {
      case 'register': {
        if (state.status === 'registered' && state.publicKey !== command.publicKey) throw new DomainError('conflict', 'Node is registered with another key');
        const matches = command.expectedHash === null || command.codeHash === null ? null : command.expectedHash === command.codeHash;
        if (matches === false && command.enforcement !== 'off') throw new DomainError('forbidden', CODE_HASH_MISMATCH);
        if (state.status === 'registered' && state.codeHash === command.codeHash && state.version === command.version) return [];
        return [
          {
            type: 'RegistryNodeRegistered',
            data: {
              node_id: command.nodeId,
              public_key: command.publicKey,
              code_hash: command.codeHash,
              version: command.version,
              code_hash_matches: matches,
              registered_at: now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command.kind);
    }
  },
};
