/**
 * The encounter flow on a central-tier node with its constants configured:
 * the draft needs cloud-drafting consent (rule 11), and the error texts name
 * the configured limits.
 */
import { startTestApp, type TestApp } from '../support/app';
import { discoverableUser, type EncounterUser, mutualLike, newUser, post } from '../support/encounter';

jest.setTimeout(60_000);

describe('encounter on a central node with configured constants', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ SVC_NODE_TIER: 'central', SVC_ENCOUNTER_MAX_TOGGLES_24H: '3', SVC_ENCOUNTER_DRAFT_MAX_CHARS: '30' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const consent = (user: EncounterUser, body: Record<string, unknown>) =>
    t.request('PUT', `/api/social/users/${user.id}/consent/cloud-data`, { token: user.token, body });

  it('given a toggle limit of 3, when toggling a fourth time, then 429 names 3', async () => {
    const user = await newUser(t);
    for (let i = 0; i < 3; i++) expect((await post(t, user, '/discoverable', { enabled: false })).status).toBe(200);
    const res = await post(t, user, '/discoverable', { enabled: false });
    expect(res.status).toBe(429);
    expect(res.body).toEqual({ success: false, error: 'toggle limit reached (3 per 24h)' });
  });

  describe('with a match', () => {
    let a: EncounterUser;
    let matchId: string;

    beforeAll(async () => {
      a = await discoverableUser(t);
      const b = await discoverableUser(t);
      matchId = await mutualLike(t, a, b);
    });

    it('given a draft limit of 30, when approving 31 chars, then 413 names 30', async () => {
      const res = await post(t, a, '/icebreaker/approve', { match_id: matchId, text: 'x'.repeat(31) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ success: false, error: 'text exceeds 30 chars' });
    });

    it('given no consent, when drafting, then 403', async () => {
      const res = await post(t, a, '/icebreaker/draft', { match_id: matchId });
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    });

    it('given a consent of another scope, when drafting, then still 403', async () => {
      expect((await consent(a, { consent: true, consent_type: 'cloud_capability', scope: 'posts' })).status).toBe(200);
      expect((await post(t, a, '/icebreaker/draft', { match_id: matchId })).status).toBe(403);
    });

    it('given cloud_capability consent for encounter_icebreaker, when drafting, then a draft within 30 chars; revoked, 403 again', async () => {
      const granted = await consent(a, { consent: true, consent_type: 'cloud_capability', scope: 'encounter_icebreaker' });
      expect(granted.body.data).toMatchObject({ cloud_data_consent: true, consent_type: 'cloud_capability', scope: 'encounter_icebreaker' });
      const res = await post(t, a, '/icebreaker/draft', { match_id: matchId });
      expect(res.status).toBe(200);
      for (const text of [res.body.data.draft, ...res.body.data.alt_drafts]) expect([...text].length).toBeLessThanOrEqual(30);
      const revoked = await consent(a, { consent: false, consent_type: 'cloud_capability', scope: 'encounter_icebreaker' });
      expect(revoked.body.data.cloud_data_consent).toBe(false);
      expect((await post(t, a, '/icebreaker/draft', { match_id: matchId })).status).toBe(403);
    });

    it('given cloud_capability consent with scope *, when drafting, then allowed', async () => {
      await consent(a, { consent: true });
      expect((await post(t, a, '/icebreaker/draft', { match_id: matchId })).status).toBe(200);
      const read = await t.request('GET', `/api/social/users/${a.id}/consent/cloud-data`, { token: a.token });
      expect(read.body.data.cloud_data_consent).toBe(true);
    });
  });
});
