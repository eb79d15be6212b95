/**
 * No server-side request forgery for URLs the service fetches on a client's
 * behalf or from configuration (the A2A gateway probe, feed preview and
 * import): every address a host resolves to must be public, and the socket
 * connects to the address that was checked (the check is the socket's own
 * DNS lookup, so a second resolution cannot swap in a private address).
 * Loopback, private, link-local, CGNAT, documentation, multicast,
 * unspecified and the like are refused unless a setting allows them.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** Whether an address is on the public internet (not loopback, private, link-local, reserved...). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // an IPv4-mapped address is judged as the IPv4 address it carries
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return !NON_PUBLIC.check(mapped[1], 'ipv4');
  }
  return !NON_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export class RefusedAddressError extends Error {
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'RefusedAddressError';
  }
}

/** A DNS lookup for the socket that refuses hosts resolving to a non-public address. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused) return callback(new RefusedAddressError(hostname, refused.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}


export interface GuardedGetOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  maxBytes: number;
  accept: string;
}

/**
 * A GET through the guard: a literal non-public address is refused before
 * connecting, a host name through the socket's own lookup; no redirects;
 * the body of a 200 (up to `maxBytes`) within `timeoutMs`. Rejects with an
 * Error saying why (`HTTP 404`, `no answer within …`, `… is not a public address`).
 */
export function guardedGet(url: URL, options: GuardedGetOptions): Promise<string> {
  return guardedRequest(url, { ...options, method: 'GET', headers: {}, body: null });
}

export interface GuardedRequestOptions extends GuardedGetOptions {
  method: string;
  headers: Record<string, string>;
  /** the exact bytes sent (what a signature covers), or null */
  body: string | null;
}

/** Any method through the guard, as guardedGet (a node-signed POST to a peer: /federation/follow). */
export function guardedRequest(url: URL, options: GuardedRequestOptions): Promise<string> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !options.allowPrivate && !isPublicAddress(host)) return Promise.reject(new Error(`${host} is not a public address`));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = { accept: options.accept, ...options.headers };
  if (options.body !== null) headers['content-length'] = String(Buffer.byteLength(options.body));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    const req = send(url, { method: options.method, headers, lookup: guardedLookup(options.allowPrivate) }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        clearTimeout(timer);
        reject(new Error(`HTTP ${res.statusCode ?? 0}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) req.destroy(new Error(`larger than ${options.maxBytes} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(options.body ?? undefined);
  });
}
