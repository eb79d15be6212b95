/** Node topology (SVC_NODE_TIER): `flat` (default), `regional` or `central`. */
export type NodeTier = 'flat' | 'regional' | 'central';
export const NODE_TIERS: readonly NodeTier[] = ['flat', 'regional', 'central'];
