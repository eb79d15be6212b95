/**
 * Probing gateways for A2A-compatible peers (SPEC §4.6, last sentence): a
 * GET of `<gateway>/.well-known/agent.json` on each configured gateway URL
 * (A2A_GATEWAY_URLS), bounded by A2A_PROBE_TIMEOUT_MS and 64 KiB.
 *
 * No server-side request forgery: the host is resolved first and every
 * address it resolves to must be public; the connection is then made to the
 * address that was checked (the check is the socket's own DNS lookup, so a
 * second resolution cannot swap in a private address). Loopback, private,
 * link-local, CGNAT, multicast, unspecified and the like are refused unless
 * A2A_PROBE_ALLOW_PRIVATE. Redirects are not followed.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type RequestOptions } from 'node:http';
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

export interface PeerCard {
  name: string;
  description: string | null;
  url: string | null;
  version: string | null;
  protocolVersion: string | null;
  skills: number;
}

export type ProbeOutcome = { gateway: string; compatible: true; card: PeerCard } | { gateway: string; compatible: false; reason: string };

const MAX_CARD_BYTES = 64 * 1024;

/** An agent card is at least a name and a url or interfaces to reach it (A2A 0.3 or 1.0). */
export function peerCardOf(value: unknown): PeerCard | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const card = value as Record<string, unknown>;
  if (typeof card.name !== 'string' || card.name.trim() === '') return null;
  const interfaces = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const firstInterfaceUrl = interfaces.map((i) => (typeof i === 'object' && i !== null ? (i as Record<string, unknown>).url : undefined)).find((u) => typeof u === 'string');
  const url = typeof card.url === 'string' ? card.url : typeof firstInterfaceUrl === 'string' ? firstInterfaceUrl : null;
  if (url === null) return null;
  const text = (v: unknown, max: number): string | null => (typeof v === 'string' ? v.slice(0, max) : null);
  return {
    name: card.name.slice(0, 200),
    description: text(card.description, 1000),
    url: url.slice(0, 2000),
    version: text(card.version, 100),
    protocolVersion: text(card.protocolVersion, 20) ?? (interfaces.length > 0 ? '1.0' : null),
    skills: Array.isArray(card.skills) ? card.skills.length : 0,
  };
}

/** Probes one gateway: its card, or why it is not an A2A peer. Never throws. */
export function probeGateway(gateway: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<ProbeOutcome> {
  const target = new URL(`${gateway}/.well-known/agent.json`);
  const refuse = (reason: string): ProbeOutcome => ({ gateway, compatible: false, reason });
  return new Promise<ProbeOutcome>((resolve) => {
    const literal = isIP(target.hostname.replace(/^\[|\]$/g, ''));
    if (literal !== 0 && !options.allowPrivate && !isPublicAddress(target.hostname.replace(/^\[|\]$/g, ''))) {
      resolve(refuse(`${target.hostname} is not a public address`));
      return;
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const requestOptions: RequestOptions = {
      method: 'GET',
      headers: { accept: 'application/json' },
      lookup: guardedLookup(options.allowPrivate),
      timeout: options.timeoutMs,
    };
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    const req = send(target, requestOptions, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        clearTimeout(timer);
        resolve(refuse(`HTTP ${res.statusCode ?? 0}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_CARD_BYTES) req.destroy(new Error(`card larger than ${MAX_CARD_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('end', () => {
        clearTimeout(timer);
        let parsed: unknown;
        try {
          parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          resolve(refuse('the card is not JSON'));
          return;
        }
        const card = peerCardOf(parsed);
        resolve(card ? { gateway, compatible: true, card } : refuse('not an agent card'));
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    req.on('error', (error) => {
      clearTimeout(timer);
      resolve(refuse(error.message));
    });
    req.end();
  });
}
