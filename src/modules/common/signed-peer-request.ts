/**
 * A node-signed POST to another node at a URL this node was told (a peer's
 * registered or announced URL, one an admin typed): signed with this node's
 * key (x-node-*, over the exact bytes sent) and sent through the address
 * guard (public-address.ts: non-public addresses only when allowed, no
 * redirects, a size bound, a time-out). The body of a 200, or a rejection
 * saying why. Used for follow notifications and integrity challenges.
 */
import type { NodeKey } from '../../infrastructure/node-identity/node-key';
import { signRequest } from '../../infrastructure/node-identity/signed-request';
import { guardedRequest } from './public-address';

export interface PeerRequestOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxBytes: number;
}

export function postSignedToPeer(key: NodeKey, nodeId: string, peerUrl: string, path: string, payload: unknown, options: PeerRequestOptions): Promise<string> {
  const url = new URL(`${peerUrl.replace(/\/+$/, '')}${path}`);
  const body = JSON.stringify(payload);
  return guardedRequest(url, {
    method: 'POST',
    headers: { ...signRequest(key, nodeId, { method: 'POST', path: url.pathname, body }), 'content-type': 'application/json' },
    body,
    accept: 'application/json',
    ...options,
  });
}
