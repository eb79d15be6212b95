/**
 * Which node keys this node trusts: its own and those configured in
 * TRUSTED_NODE_KEYS. Federation's registration of nodes (issue 17, item 2)
 * replaces this directory with one backed by the registered keys.
 */
import type { AppConfig } from '../../config/config';
import type { NodeKey } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';

export class ConfiguredNodeKeys implements NodeKeyDirectory {
  private readonly keys: ReadonlyMap<string, string>;

  constructor(config: AppConfig, own: NodeKey) {
    this.keys = new Map([...Object.entries(config.integrity.trustedNodeKeys), [config.nodeId, own.publicKeyHex]]);
  }

  async publicKeyOf(nodeId: string): Promise<string | null> {
    return this.keys.get(nodeId) ?? null;
  }
}
