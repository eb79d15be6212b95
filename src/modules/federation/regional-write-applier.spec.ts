import { DomainError } from '../../aggregates/shared/domain-error';
import { readRegionalWrite } from './regional-write-applier';

const write = { method: 'POST', path: '/api/social/posts', headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'x-node-id': 'spoofed', cookie: 'c=1' }, body: '{"title":"t"}', client_ip: '203.0.113.7' };

describe('a regional_write payload as central reads it', () => {
  it('given a write, then its method, path, body and address are taken, and of its headers only the credential and content ones', () => {
    expect(readRegionalWrite(write)).toEqual({
      method: 'POST',
      path: '/api/social/posts',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"title":"t"}',
      client_ip: '203.0.113.7',
    });
  });

  it.each([
    ['a HEAD', { ...write, method: 'HEAD' }, /method must be POST, PUT, PATCH, DELETE or GET/],
    ['a full URL for a path', { ...write, path: 'http://elsewhere.example/x' }, /path must be an absolute path/],
    ['a protocol-relative path', { ...write, path: '//elsewhere.example/x' }, /path must be an absolute path/],
    ['a body that is not text', { ...write, body: { title: 't' } }, /body must be the JSON text or null/],
    ['no client address', { ...write, client_ip: '' }, /client_ip is required/],
  ])('given %s, then it is refused as invalid', (_, payload, message) => {
    expect(() => readRegionalWrite(payload)).toThrow(DomainError);
    expect(() => readRegionalWrite(payload)).toThrow(message);
  });
});
