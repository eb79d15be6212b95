import { loadAdsConfig } from './ads.config';

describe('ads config', () => {
  it('given no AD_NODE_OPERATORS, then no node has an operator', () => expect(loadAdsConfig({})).toEqual({ nodeOperators: {} }));

  it('given pairs, then node id → username', () =>
    expect(loadAdsConfig({ AD_NODE_OPERATORS: ' node-a=alice , node.b:1=bob ' })).toEqual({ nodeOperators: { 'node-a': 'alice', 'node.b:1': 'bob' } }));

  it.each(['node-a', 'node-a=', '=alice', 'a=b=c', 'node a=alice'])('given %s, then the variable is named in the error', (value) =>
    expect(() => loadAdsConfig({ AD_NODE_OPERATORS: value })).toThrow(/AD_NODE_OPERATORS/));
});
