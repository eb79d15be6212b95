/**
 * Ads (social-routes §16):
 * - AD_NODE_OPERATORS: who operates which node, for the operators' share of
 *   ad revenue: `<node id>=<username>` pairs, comma-separated. Nothing else in
 *   the service records a node's owner (federation registers a node's key,
 *   compute its settings), so the admin who deploys the node names the
 *   operator here. An impression served by a node not listed, or whose
 *   operator has no account, pays no share: its cost is all the platform's.
 */
import { ConfigError } from './config-error';

export interface AdsConfig {
  /** node id → the operator's username */
  nodeOperators: Readonly<Record<string, string>>;
}

const NODE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const USERNAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function loadAdsConfig(env: Record<string, string | undefined>): AdsConfig {
  const nodeOperators: Record<string, string> = {};
  for (const pair of (env.AD_NODE_OPERATORS ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [nodeId, username, ...rest] = pair.split('=').map((p) => p.trim());
    if (rest.length > 0 || !nodeId || !NODE_ID.test(nodeId) || !username || !USERNAME.test(username)) {
      throw new ConfigError('AD_NODE_OPERATORS', `expected <node id>=<username>, comma-separated; got '${pair}'`);
    }
    nodeOperators[nodeId] = username;
  }
  return { nodeOperators };
}
