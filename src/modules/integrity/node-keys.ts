/**
 * Which node keys this node trusts: its own, those configured in
 * TRUSTED_NODE_KEYS, and those of the nodes registered with it for
 * federation and approved (read model `federationNodes`, issue 17 item 2).
 * The configured keys win over the registry for a node id in both.
 */
import type { AppConfig } from '../../config/config';
import type { NodeKey } from '../../infrastructure/node-identity/node-key';
import type { NodeKeyDirectory } from '../../infrastructure/node-identity/signed-request';
import type { ReadStore } from '../../infrastructure/read-store/read-store.port';
import { FEDERATION_NODES, type FederationNodeDoc } from '../../projections/federation/federation-nodes.projection';

export class ConfiguredNodeKeys implements NodeKeyDirectory {
  private readonly keys: ReadonlyMap<string, string>;

  constructor(
    config: AppConfig,
    own: NodeKey,
    private readonly readStore: ReadStore | null = null,
  ) {
    this.keys = new Map([...Object.entries(config.integrity.trustedNodeKeys), [config.nodeId, own.publicKeyHex]]);
  }

  async publicKeyOf(nodeId: string): Promise<string | null> {
    const configured = this.keys.get(nodeId);
    if (configured) return configured;
    if (!this.readStore) return null;
    const registered = await this.readStore.collection<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: nodeId });
    return registered?.status === 'approved' ? registered.public_key : null;
  }
}
