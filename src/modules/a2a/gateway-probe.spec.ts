import { isPublicAddress, peerCardOf, probeGateway } from './gateway-probe';

describe('gateway probing', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:a00:1', '::'])(
    'given %s, then it is not a public address',
    (address) => expect(isPublicAddress(address)).toBe(false),
  );

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])('given %s, then it is public', (address) => expect(isPublicAddress(address)).toBe(true));

  it('given a loopback gateway and private addresses not allowed, then it is refused before any connection', async () => {
    await expect(probeGateway('http://127.0.0.1:9', { timeoutMs: 500, allowPrivate: false })).resolves.toEqual({
      gateway: 'http://127.0.0.1:9',
      compatible: false,
      reason: '127.0.0.1 is not a public address',
    });
  });

  it('given a name that resolves to loopback, then it is refused by the lookup', async () => {
    const outcome = await probeGateway('http://localhost:9', { timeoutMs: 500, allowPrivate: false });
    expect(outcome).toMatchObject({ compatible: false, reason: expect.stringContaining('not a public address') });
  });

  it('given a card of A2A 0.3 or 1.0, then a peer; anything else, not', () => {
    expect(peerCardOf({ name: 'a', url: 'http://x/a2a' })).toMatchObject({ name: 'a', url: 'http://x/a2a' });
    expect(peerCardOf({ name: 'b', supportedInterfaces: [{ url: 'http://x/rpc', protocolBinding: 'JSONRPC' }] })).toMatchObject({ url: 'http://x/rpc', protocolVersion: '1.0' });
    expect(peerCardOf({ status: 'alive' })).toBeNull();
  });
});
