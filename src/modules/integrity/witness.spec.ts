import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { coSign, judgeWitnessRequest, signImpressionWitnessRequest, verifyWitnessCoSignature, WITNESS_REASONS } from './witness';

const requester = NodeKey.generate();
const witnessKey = NodeKey.generate();
const NOW = Date.parse('2026-12-07T12:00:00.000Z');
const fields = { node_id: 'node-a', timestamp: NOW - 5_000, impression_id: 'imp-1', ad_id: 'ad-1', nonce: 'nonce-000000000001' };
const context = { registeredKey: requester.publicKeyHex, banned: false, now: NOW };

describe('judging an impression witness request', () => {
  it('given a fresh request signed by the registered key, then it may be witnessed', () =>
    expect(judgeWitnessRequest(signImpressionWitnessRequest(requester, fields), context)).toEqual({ ok: true }));

  it('given a banned requester, then no witness', () =>
    expect(judgeWitnessRequest(signImpressionWitnessRequest(requester, fields), { ...context, banned: true })).toEqual({ ok: false, reason: WITNESS_REASONS.banned }));

  it('given a timestamp 61 s old, then no witness', () =>
    expect(judgeWitnessRequest(signImpressionWitnessRequest(requester, { ...fields, timestamp: NOW - 61_000 }), context)).toEqual({ ok: false, reason: WITNESS_REASONS.stale }));

  it('given a request signed by another key that claims to be the node, then no witness', () => {
    const forged = signImpressionWitnessRequest(NodeKey.generate(), fields);
    expect(judgeWitnessRequest({ ...forged, public_key: undefined }, context)).toEqual({ ok: false, reason: WITNESS_REASONS.badSignature });
  });

  it('given a request whose fields were changed after signing, then no witness', () =>
    expect(judgeWitnessRequest({ ...signImpressionWitnessRequest(requester, fields), ad_id: 'ad-2' }, context)).toEqual({ ok: false, reason: WITNESS_REASONS.badSignature }));

  it('given a node without a registered key, then no witness', () =>
    expect(judgeWitnessRequest(signImpressionWitnessRequest(requester, fields), { ...context, registeredKey: null })).toEqual({ ok: false, reason: WITNESS_REASONS.unknownNode }));
});

describe('verifying a witness co-signature', () => {
  const expected = { impression_id: 'imp-1', ad_id: 'ad-1', nonce: fields.nonce, requester_node_id: 'node-a' };
  const answer = coSign(witnessKey, 'node-w', fields, new Date(NOW));

  it('given the co-signature of the witness, then it verifies with the witness key', () => expect(verifyWitnessCoSignature(answer, expected, witnessKey.publicKeyHex, 'node-w')).toBe(true));

  it('given another key than the witness’s, then it does not verify', () => expect(verifyWitnessCoSignature(answer, expected, requester.publicKeyHex)).toBe(false));

  it('given a co-signature of another impression, then it does not verify', () =>
    expect(verifyWitnessCoSignature(answer, { ...expected, impression_id: 'imp-2' }, witnessKey.publicKeyHex)).toBe(false));

  it('given a statement altered after signing, then it does not verify', () =>
    expect(verifyWitnessCoSignature({ ...answer, witness: { ...answer.witness, witnessed_at: new Date(NOW + 1).toISOString() } }, expected, witnessKey.publicKeyHex)).toBe(false));
});
