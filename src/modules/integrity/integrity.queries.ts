/** What the integrity routes answer, signed with the node's key. */
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { canonicalJson } from '../../infrastructure/canonical-json';
import { Clock } from '../../infrastructure/clock';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { codeHash, RUNNING_CODE_ROOT } from '../../infrastructure/node-identity/code-hash';
import { NodeKey } from '../../infrastructure/node-identity/node-key';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { INTEGRITY_CHALLENGES, type IntegrityChallengeDoc } from '../../projections/integrity/integrity-challenges.projection';
import { NODE_STANDINGS, type NodeStandingDoc } from '../../projections/integrity/node-standings.projection';
import type { Page } from '../common/paging';
import type { ChallengeRecord } from './integrity.commands';

export interface SignedCodeHash {
  node_id: string;
  code_hash: string;
  version: string;
  public_key: string;
  signature: string;
}

@Injectable()
export class IntegrityQueries {
  private codeHash: Promise<string> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly key: NodeKey,
    private readonly clock: Clock,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  /** The ids of the nodes banned now, sorted. */
  async bannedNodeIds(): Promise<string[]> {
    const docs = await this.readStore.collection<NodeStandingDoc>(NODE_STANDINGS).find({ banned: true }, { sort: { _id: 1 }, projection: { _id: 1 } });
    return docs.map((doc) => doc._id);
  }

  /** One challenge this node issued, as its read model holds it (null: unknown). */
  async challenge(id: string): Promise<ChallengeRecord | null> {
    const doc = await this.readStore.collection<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES).findOne({ _id: id });
    return doc ? challengeRecord(doc) : null;
  }

  /** The challenges this node issued, newest first. */
  async challenges(page: Page): Promise<{ items: ChallengeRecord[]; total: number }> {
    const collection = this.readStore.collection<IntegrityChallengeDoc>(INTEGRITY_CHALLENGES);
    const [docs, total] = await Promise.all([
      collection.find({}, { sort: { created_at: -1, _id: 1 }, skip: page.offset, limit: page.limit }),
      collection.countDocuments({}),
    ]);
    return { items: docs.map(challengeRecord), total };
  }

  publicKey(): { node_id: string; public_key: string } {
    return { node_id: this.config.nodeId, public_key: this.key.publicKeyHex };
  }

  async signedCodeHash(): Promise<SignedCodeHash> {
    const body = { node_id: this.config.nodeId, code_hash: await this.runningCodeHash(), version: this.config.version, public_key: this.key.publicKeyHex };
    return { ...body, signature: this.key.sign(canonicalJson(body)) };
  }

  /** The code hash a registry expects for `version`: configured (INTEGRITY_EXPECTED_HASHES), else its own for its own version, else null. */
  async expectedHash(version: string): Promise<string | null> {
    const configured = this.config.integrity.expectedHashes[version];
    if (configured) return configured;
    return version === this.config.version ? this.runningCodeHash() : null;
  }

  /** Computed once per process: the code does not change while it runs. */
  runningCodeHash(): Promise<string> {
    this.codeHash ??= codeHash(RUNNING_CODE_ROOT);
    return this.codeHash;
  }
}

/** The §20 challenge record of a read-model document. */
const challengeRecord = ({ _id, issued_by: _by, _pos: _p, ...record }: IntegrityChallengeDoc & { _pos?: unknown }): ChallengeRecord => ({ id: _id, ...record });
