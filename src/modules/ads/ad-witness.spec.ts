import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { ReadStoreNonceStore } from '../../infrastructure/node-identity/read-store-nonce-store';
import { coSign } from '../integrity/witness';
import { type PresentedWitness, WITNESS_NONCE_REUSED, witnessCounts } from './ad-witness';

describe('a witness co-signature presented with an ad charge', () => {
  const witnessKey = NodeKey.generate();
  const keys = { publicKeyOf: async (id: string) => (id === 'w' ? witnessKey.publicKeyHex : null) };
  const now = 1_800_000_000_000;
  let store: EmbeddedReadStore;
  let nonces: ReadStoreNonceStore;

  beforeEach(() => {
    store = new EmbeddedReadStore({ file: null });
    nonces = new ReadStoreNonceStore(store, () => now, 0);
  });
  afterEach(() => store.close());

  /** What POST /integrity/witness-impression of node `w` answers for serving node n1's request. */
  const coSigned = (over: Partial<{ signer: NodeKey; witnessNode: string; adId: string; requester: string; at: number; nonce: string }> = {}): PresentedWitness => {
    const request = { node_id: over.requester ?? 'n1', timestamp: now, impression_id: 'imp-1', ad_id: over.adId ?? 'ad1', nonce: over.nonce ?? 'nonce-0001' };
    const { witness, witness_signature } = coSign(over.signer ?? witnessKey, over.witnessNode ?? 'w', request, new Date(over.at ?? now));
    return { witness, witness_signature };
  };
  const counts = (witness: PresentedWitness | null, nodeId: string | null = 'n1', banned = false) =>
    witnessCounts({ adId: 'ad1', nodeId, witness }, { keys, nonces, isBanned: async () => banned, now });

  it('given a fresh co-signature of a registered peer for this ad and serving node, then witnessed', async () => expect(await counts(coSigned())).toBe(true));

  it.each([
    ['signed by another key', () => coSigned({ signer: NodeKey.generate() })],
    ['of another ad', () => coSigned({ adId: 'ad2' })],
    ['requested by another node than the serving one', () => coSigned({ requester: 'n2' })],
    ['by an unknown node', () => coSigned({ witnessNode: 'x' })],
    ['by the serving node itself', () => coSigned({ witnessNode: 'n1' })],
    ['older than 60 seconds', () => coSigned({ at: now - 61_000 })],
  ])('given a co-signature %s, then not witnessed', async (_name, witness) => expect(await counts(witness())).toBe(false));

  it('given no serving node, then not witnessed', async () => expect(await counts(coSigned(), null)).toBe(false));

  it('given a banned witness, then not witnessed', async () => expect(await counts(coSigned(), 'n1', true)).toBe(false));

  it('given a co-signature whose nonce already witnessed a charge, then 409', async () => {
    await counts(coSigned());
    await expect(counts(coSigned())).rejects.toMatchObject({ kind: 'conflict', message: WITNESS_NONCE_REUSED });
  });

  it('given a forged co-signature reusing a nonce, then not witnessed and the nonce stays free', async () => {
    expect(await counts(coSigned({ signer: NodeKey.generate() }))).toBe(false);
    expect(await counts(coSigned())).toBe(true);
  });
});
