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
import { guardedGet } from '../common/public-address';

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
export async function probeGateway(gateway: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<ProbeOutcome> {
  const refuse = (reason: string): ProbeOutcome => ({ gateway, compatible: false, reason });
  let body: string;
  try {
    body = await guardedGet(new URL(`${gateway}/.well-known/agent.json`), { ...options, maxBytes: MAX_CARD_BYTES, accept: 'application/json' });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : String(error));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return refuse('the card is not JSON');
  }
  const card = peerCardOf(parsed);
  return card ? { gateway, compatible: true, card } : refuse('not an agent card');
}
