import { securityHeaders } from './browser-policy';

describe('securityHeaders', () => {
  it('given helmet options, then the headers helmet writes are recorded once, with the CSP as configured', () => {
    const headers = securityHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], frameAncestors: ["'none'"] } }, referrerPolicy: { policy: 'no-referrer' } });
    expect(headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
    });
    expect(headers['x-powered-by']).toBeUndefined();
  });

  it('given a header helmet is told to leave out, then it is absent', () => {
    expect(securityHeaders({ strictTransportSecurity: false })['strict-transport-security']).toBeUndefined();
  });
});
