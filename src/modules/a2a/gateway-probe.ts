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
import { request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPublicAddress } from '../common/public-address';

export { guardedLookup, isPublicAddress, RefusedAddressError } from '../common/public-address';

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
