/**
 * The integrity context's reads beyond identity (social-routes §20): alerts,
 * peer stats, the guardrail hash, the registry's keys and expected hashes,
 * the audit's records of a node, the dashboard and the boot status. Read
 * models only (alerts, standings, challenges, registry, federation nodes,
 * fleet nodes, peer gossip), never the log.
 */
import { createHash } from 'node:crypto';
import { cpus } from 'node:os';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { Clock } from '../../infrastructure/clock';
import { PlatformLifecycle } from '../../infrastructure/platform-lifecycle';
import { ProjectionEngine } from '../../infrastructure/projections/projection-engine';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { AGENT_PROFILES } from '../../projections/agents/agent-profiles.projection';
import { COMPUTE_PROVIDER_STATS, type ComputeProviderStatsDoc } from '../../projections/compute/compute-provider.projection';
import { PEER_NODES, type PeerNodeDoc } from '../../projections/compute/peer-nodes.read-model';
import { ALL_POSTS_COUNT, POST_COUNTS } from '../../projections/content/posts.projection';
import { FEDERATION_NODES, type FederationNodeDoc } from '../../projections/federation/federation-nodes.projection';
import { NETWORK_PEERS, type NetworkPeerDoc } from '../../projections/federation/network-peers.projection';
import { FLEET_NODES, type FleetNodeDoc } from '../../projections/fleet/fleet-nodes.projection';
import { INTEGRITY_ALERTS, type IntegrityAlertDoc } from '../../projections/integrity/integrity-alerts.projection';
import { INTEGRITY_CHALLENGES, type IntegrityChallengeDoc } from '../../projections/integrity/integrity-challenges.projection';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import { REGISTRY_NODES, type RegistryNodeDoc } from '../../projections/integrity/registry-nodes.projection';
import { GUARDRAIL_POLICY } from '../chat/gate/guardrail-policy';
import type { Page } from '../common/paging';
import { auditCoverage, type CoverageRow } from './audit-coverage';
import type { AuditRecords } from './audit-findings';
import type { AlertRecord } from './integrity.commands';
import { IntegrityQueries } from './integrity.queries';

export interface AlertFilter {
  nodeId?: string;
  status?: string;
  severity?: string;
}

export interface PeerStats {
  success: true;
  node_id: string;
  agent_count: number;
  post_count: number;
  contribution_score: number;
  last_seen: string | null;
  status: 'self' | 'active' | 'pending' | 'banned';
}

/** The guardrail policy in a canonical form: its categories, reasons and rule patterns. */
export function guardrailPolicyHash(): string {
  const policy = GUARDRAIL_POLICY.map((c) => ({
    category: c.category,
    reason: c.reason,
    rules: c.rules.map((r) => ({ all: r.all.map(String), none: (r.none ?? []).map(String) })),
  }));
  return createHash('sha256').update(canonicalJson(policy)).digest('hex');
}

/** Taken once when the module loads: the policy the node booted with. */
const BOOT_GUARDRAIL_HASH = guardrailPolicyHash();

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const latest = (...times: (string | null | undefined)[]): string | null => times.filter((t): t is string => typeof t === 'string').sort().at(-1) ?? null;

@Injectable()
export class IntegrityOversightQueries {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly identity: IntegrityQueries,
    private readonly clock: Clock,
    private readonly lifecycle: PlatformLifecycle,
    private readonly projections: ProjectionEngine,
  ) {}

  private col<T extends { _id: string }>(name: string) {
    return this.readStore.collection<T>(name);
  }

  async alerts(filter: AlertFilter, page: Page): Promise<{ items: AlertRecord[]; total: number }> {
    const where: Record<string, string> = {};
    if (filter.nodeId !== undefined) where.node_id = filter.nodeId;
    if (filter.status !== undefined) where.status = filter.status;
    if (filter.severity !== undefined) where.severity = filter.severity;
    const alerts = this.col<IntegrityAlertDoc>(INTEGRITY_ALERTS);
    const [docs, total] = await Promise.all([alerts.find(where, { sort: { created_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }), alerts.countDocuments(where)]);
    return { items: docs.map(alertRecord), total };
  }

  async alert(id: string): Promise<AlertRecord | null> {
    const doc = await this.col<IntegrityAlertDoc>(INTEGRITY_ALERTS).findOne({ _id: id });
    return doc ? alertRecord(doc) : null;
  }

  async alertsOf(ids: string[]): Promise<AlertRecord[]> {
    if (ids.length === 0) return [];
    const docs = await this.col<IntegrityAlertDoc>(INTEGRITY_ALERTS).find({ _id: { $in: ids } }, { sort: { created_at: 1, _id: 1 } });
    return docs.map(alertRecord);
  }

  /** Whether this node has any record of `nodeId` (registered, audited, challenged, gossiped, in the fleet). */
  async isKnownNode(nodeId: string): Promise<boolean> {
    if (nodeId === this.config.nodeId) return true;
    const found = await Promise.all([
      this.col<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: nodeId }),
      this.col<RegistryNodeDoc>(REGISTRY_NODES).findOne({ _id: nodeId }),
      this.col<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: nodeId }),
      this.col<FleetNodeDoc>(FLEET_NODES).findOne({ _id: nodeId }),
      this.col<PeerNodeDoc>(PEER_NODES).findOne({ _id: nodeId }),
      this.col<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES).findOne({ target_node_id: nodeId }),
    ]);
    return found.some((doc) => doc !== null) || nodeId in this.config.integrity.trustedNodeKeys;
  }

  /** Where `nodeId` answers, as it told this node: its federation registration, else its peer announcement; null when unknown. */
  async nodeUrl(nodeId: string): Promise<string | null> {
    const [federation, peer] = await Promise.all([
      this.col<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: nodeId }),
      this.col<NetworkPeerDoc>(NETWORK_PEERS).findOne({ _id: nodeId }),
    ]);
    return federation?.url ?? peer?.url ?? null;
  }

  /** What an audit of `nodeId` weighs (audit-findings.ts). */
  async auditRecords(nodeId: string): Promise<AuditRecords> {
    const [challenges, registration] = await Promise.all([
      this.col<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES).find({ target_node_id: nodeId }, { sort: { created_at: 1, _id: 1 } }),
      this.col<RegistryNodeDoc>(REGISTRY_NODES).findOne({ _id: nodeId }),
    ]);
    return {
      challenges: challenges.map((c) => ({ id: c._id, challenge_type: c.challenge_type, status: c.status, result_details: c.result_details, created_at: c.created_at })),
      registration: registration
        ? {
            code_hash: registration.code_hash,
            version: registration.version,
            code_hash_matches: registration.code_hash_matches,
            expected_hash: registration.version ? await this.identity.expectedHash(registration.version) : null,
          }
        : null,
    };
  }

  async peerStats(nodeId: string): Promise<PeerStats | null> {
    const contribution = await this.col<ComputeProviderStatsDoc>(COMPUTE_PROVIDER_STATS).findOne({ _id: nodeId });
    const contribution_score = num(contribution?.total_rewards) + num(contribution?.total_spark_earned);
    if (nodeId === this.config.nodeId) {
      const [agents, posts] = await Promise.all([this.col(AGENT_PROFILES).countDocuments({}), this.readStore.collection<{ _id: string; visible?: number }>(POST_COUNTS).findOne({ _id: ALL_POSTS_COUNT })]);
      return { success: true, node_id: nodeId, agent_count: agents, post_count: num(posts?.visible), contribution_score, last_seen: this.clock.now().toISOString(), status: 'self' };
    }
    const [federation, registry, standing, fleet, peer] = await Promise.all([
      this.col<FederationNodeDoc>(FEDERATION_NODES).findOne({ _id: nodeId }),
      this.col<RegistryNodeDoc>(REGISTRY_NODES).findOne({ _id: nodeId }),
      this.col<NodeStandingDoc>(NODE_STANDINGS).findOne({ _id: nodeId }),
      this.col<FleetNodeDoc>(FLEET_NODES).findOne({ _id: nodeId }),
      this.col<PeerNodeDoc>(PEER_NODES).findOne({ _id: nodeId }),
    ]);
    if (!federation && !registry && !standing && !fleet && !peer) return null;
    const status = standing?.banned ? 'banned' : federation?.status === 'pending' && !registry && !fleet ? 'pending' : 'active';
    return {
      success: true,
      node_id: nodeId,
      agent_count: num(fleet?.compute_info?.agent_count),
      post_count: num(fleet?.compute_info?.post_count),
      contribution_score,
      last_seen: latest(peer?.last_seen_at, fleet?.last_seen_at, registry?.updated_at, federation?.approved_at, federation?.registered_at),
      status,
    };
  }

  guardrailHash(): { node_id: string; guardrail_hash: string; guardrail_hash_live: string; consistent: boolean } {
    const live = guardrailPolicyHash();
    return { node_id: this.config.nodeId, guardrail_hash: BOOT_GUARDRAIL_HASH, guardrail_hash_live: live, consistent: live === BOOT_GUARDRAIL_HASH };
  }

  /** The keys of the nodes registered with this registry and not banned. */
  async trustedKeys(): Promise<Record<string, string>> {
    const [nodes, banned] = await Promise.all([
      this.col<RegistryNodeDoc>(REGISTRY_NODES).find({}, { sort: { _id: 1 } }),
      this.identity.bannedNodeIds(),
    ]);
    const out = new Set(banned);
    return Object.fromEntries(nodes.filter((n) => !out.has(n._id)).map((n) => [n._id, n.public_key]));
  }

  /** Every node of the fleet heard from in the last day, this node among them (audit-coverage.ts). */
  async auditCoverage(): Promise<{ nodes: CoverageRow[]; covered: number; uncovered: number }> {
    const since = new Date(this.clock.now().getTime() - 24 * 60 * 60 * 1000).toISOString();
    const [fleet, banned] = await Promise.all([
      this.col<FleetNodeDoc>(FLEET_NODES).find({ last_seen_at: { $gte: since } }, { sort: { _id: 1 }, limit: 10_000 }),
      this.identity.bannedNodeIds(),
    ]);
    const out = new Set(banned);
    const self = fleet.find((n) => n._id === this.config.nodeId);
    const nodes = fleet.map((n) => ({ node_id: n._id, tier: n.tier, compute_info: n.compute_info ?? {}, banned: out.has(n._id) }));
    if (!self) nodes.push({ node_id: this.config.nodeId, tier: this.config.nodeTier, compute_info: { cpu_cores: cpus().length }, banned: false });
    return auditCoverage(nodes);
  }

  bootStatus() {
    const projections = this.projections.status();
    return {
      enforcement_mode: this.config.integrity.enforcement,
      dev_mode: process.env.NODE_ENV !== 'production',
      runtime_healthy: this.lifecycle.isReady(),
      monitor_active: projections.some((p) => p.running),
      release_version: this.config.version,
      // no signed release manifest ships with this build: the code hash (GET /integrity/code-hash) stands for it
      manifest_present: false,
      hsm: false,
      hsm_trust: 'software-key',
      registry_mode: this.config.integrity.registryMode,
      guardrails_consistent: this.guardrailHash().consistent,
    };
  }

  async dashboard() {
    const alerts = this.col<IntegrityAlertDoc>(INTEGRITY_ALERTS);
    const challenges = this.col<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES);
    const standings = this.col<NodeStandingDoc>(NODE_STANDINGS);
    const count = (c: typeof alerts | typeof challenges | typeof standings, filter: Record<string, unknown>) => c.countDocuments(filter);
    const [open, investigating, total, critical, high, pending, passed, failed, banned, riskiest, registered, federated] = await Promise.all([
      count(alerts, { status: 'open' }),
      count(alerts, { status: 'investigating' }),
      count(alerts, {}),
      count(alerts, { severity: 'critical', status: { $in: ['open', 'investigating'] } }),
      count(alerts, { severity: 'high', status: { $in: ['open', 'investigating'] } }),
      count(challenges, { status: 'pending' }),
      count(challenges, { status: 'passed' }),
      count(challenges, { status: 'failed' }),
      count(standings, { banned: true }),
      standings.find({ fraud_score: { $gt: 0 } }, { sort: { fraud_score: -1, _id: 1 }, limit: 10 }),
      this.col(REGISTRY_NODES).countDocuments({}),
      this.col(FEDERATION_NODES).countDocuments({}),
    ]);
    return {
      node_id: this.config.nodeId,
      node_tier: this.config.nodeTier,
      registry_mode: this.config.integrity.registryMode,
      enforcement_mode: this.config.integrity.enforcement,
      alerts: { open, investigating, total, open_critical: critical, open_high: high },
      challenges: { pending, passed, failed },
      nodes: { banned, registry: registered, federation: federated },
      highest_fraud_scores: riskiest.map((s) => ({ node_id: s._id, fraud_score: s.fraud_score, banned: s.banned })),
      guardrails_consistent: this.guardrailHash().consistent,
    };
  }
}

function alertRecord(d: IntegrityAlertDoc): AlertRecord {
  return {
    id: d._id,
    node_id: d.node_id,
    alert_type: d.alert_type,
    severity: d.severity,
    description: d.description,
    evidence: d.evidence,
    fraud_score_delta: d.fraud_score_delta,
    status: d.status,
    reviewed_by: d.reviewed_by,
    reviewed_at: d.reviewed_at,
    created_at: d.created_at,
  };
}
