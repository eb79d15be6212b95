/**
 * Steps of the encounter flow for HTTP tests: users with a rotating key, made
 * discoverable, sighting and liking each other.
 */
import { randomBytes } from 'node:crypto';
import type { HttpResponse, TestApp } from './app';
import { signUp } from './app';

export const ENC = '/api/social/encounter';

export interface EncounterUser {
  id: string;
  token: string;
  username: string;
  pubkey: string;
}

export function randomKey(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

export async function newUser(t: TestApp): Promise<EncounterUser> {
  return { ...(await signUp(t, { prefix: 'e' })), pubkey: '' };
}

export function post<T = any>(t: TestApp, user: EncounterUser | null, path: string, body: unknown): Promise<HttpResponse<T>> {
  return t.request('POST', `${ENC}${path}`, { body, token: user?.token });
}

export function get<T = any>(t: TestApp, user: EncounterUser | null, path: string): Promise<HttpResponse<T>> {
  return t.request('GET', `${ENC}${path}`, { token: user?.token });
}

export async function registerKey(t: TestApp, user: EncounterUser, pubkey = randomKey()): Promise<string> {
  const res = await post(t, user, '/register-pubkey', { pubkey });
  if (res.status !== 200) throw new Error(`register-pubkey failed: ${res.status} ${JSON.stringify(res.body)}`);
  user.pubkey = pubkey;
  return pubkey;
}

export async function enable(t: TestApp, user: EncounterUser, extra: Record<string, unknown> = {}): Promise<HttpResponse> {
  return post(t, user, '/discoverable', { enabled: true, age_claim_18: true, ...extra });
}

/** A registered user with a current key who is discoverable. */
export async function discoverableUser(t: TestApp, profile: Record<string, unknown> = {}): Promise<EncounterUser> {
  const user = await newUser(t);
  await registerKey(t, user);
  const res = await enable(t, user, profile);
  if (res.status !== 200) throw new Error(`enable failed: ${res.status} ${JSON.stringify(res.body)}`);
  return user;
}

/** `owner` sights `peer` (by peer's current key); returns the sighting id. */
export async function sight(t: TestApp, owner: EncounterUser, peer: EncounterUser, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await post(t, owner, '/sighting', { peer_pubkey: peer.pubkey, rssi_peak: -60, dwell_sec: 30, ...extra });
  if (res.status !== 200) throw new Error(`sighting failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.sighting_id;
}

export function swipe(t: TestApp, user: EncounterUser, sightingId: string, decision = 'like'): Promise<HttpResponse> {
  return post(t, user, '/swipe', { sighting_id: sightingId, decision });
}

/** Both sight and like each other; returns the match id the second like reported. */
export async function mutualLike(
  t: TestApp,
  a: EncounterUser,
  b: EncounterUser,
  coords: { a?: Record<string, number>; b?: Record<string, number> } = {},
): Promise<string> {
  const sa = await sight(t, a, b, coords.a ?? {});
  const sb = await sight(t, b, a, coords.b ?? {});
  const first = await swipe(t, a, sa);
  const second = await swipe(t, b, sb);
  if (first.status !== 200 || second.status !== 200) throw new Error('swipe failed');
  return second.body.data.match_id;
}
