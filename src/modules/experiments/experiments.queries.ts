/**
 * Reads of the thought-experiment read models (social-routes §17) and the
 * views the routes answer with; user text escaped on output (§0.1).
 */
import { Inject, Injectable } from '@nestjs/common';
import type { Experiment, ExperimentStatus, VoteRecord } from '../../aggregates/experiments/experiment';
import { type Tally, tallyVotes } from '../../aggregates/experiments/voting-rules';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { POSTS, type PostDoc } from '../../projections/content/posts.projection';
import { viewsOf } from '../../projections/content/post-views.read-model';
import { EXPERIMENT_VOTES, EXPERIMENTS, type ExperimentDoc, type ExperimentFields, type ExperimentVoteDoc } from '../../projections/experiments/experiments.projection';
import { SOCIAL_ENCOUNTERS, type SocialEncounterDoc } from '../../projections/proximity/social-encounters.projection';
import { AccountsQueries, toUserView, type UserView } from '../accounts/accounts.queries';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';
import { BOND_BONUS_LEVEL, DISCOVERY_POOL, discoveryScore, NO_VIEWER, type Viewer } from './discovery';
import type { DiscoverQuery } from './experiments.requests';

/** An experiment as the routes show it (the record of §17). */
export interface ExperimentView {
  id: string;
  post_id: string;
  creator_id: string;
  title: string;
  hypothesis: string;
  expected_outcome: string;
  intent_category: string;
  status: ExperimentStatus;
  decision_type: string;
  decision_context: string;
  experiment_type: string;
  is_core_ip: boolean;
  parent_experiment_id: string | null;
  voting_opens_at: string;
  voting_closes_at: string;
  evaluation_deadline: string;
  total_votes: number;
  contributor_count: number;
  funding_total: number;
  decision_outcome: string | null;
  decision_rationale: { tally: Tally; agent_evaluations: unknown[]; decided_at: string } | null;
  evaluation_goal_id: string | null;
  evolution_paused: boolean;
  created_at: string;
  updated_at: string;
}

export interface VoteView {
  id: string;
  experiment_id: string;
  voter_id: string;
  voter_type: string;
  vote_value: number;
  confidence: number;
  reasoning: string;
  suggestion: string;
  constitutional_check: boolean;
  created_at: string;
  updated_at: string;
}

export type ExperimentSource = ExperimentFields;

/** What a command's outcome reads like: the same fields as the read model. */
export function sourceOf(state: Experiment): ExperimentSource {
  return {
    ...state.record,
    status: state.status,
    total_votes: state.totalVotes,
    contributor_count: state.contributorCount,
    funding_total: state.fundingTotal,
    decision_outcome: state.decision,
    decision_rationale: state.rationale,
    evaluation_goal_id: state.evaluationGoalId,
    evolution_paused: state.evolutionPaused,
    updated_at: state.updatedAt,
  };
}

export function tallyView(tally: Tally): Tally {
  return { ...tally, suggestions: tally.suggestions.map((s) => ({ ...s, suggestion: escapeHtml(s.suggestion) })) };
}

export function experimentView(s: ExperimentSource): ExperimentView {
  return {
    id: s.experiment_id,
    post_id: s.post_id,
    creator_id: s.creator_id,
    title: escapeHtml(s.title),
    hypothesis: escapeHtml(s.hypothesis),
    expected_outcome: escapeHtml(s.expected_outcome),
    intent_category: s.intent_category,
    status: s.status,
    decision_type: s.decision_type,
    decision_context: s.decision_context,
    experiment_type: s.experiment_type,
    is_core_ip: s.is_core_ip,
    parent_experiment_id: s.parent_experiment_id,
    voting_opens_at: s.voting_opens_at,
    voting_closes_at: s.voting_closes_at,
    evaluation_deadline: s.evaluation_deadline,
    total_votes: s.total_votes,
    contributor_count: s.contributor_count,
    funding_total: s.funding_total,
    decision_outcome: s.decision_outcome === null ? null : escapeHtml(s.decision_outcome),
    decision_rationale: s.decision_rationale ? { ...s.decision_rationale, tally: tallyView(s.decision_rationale.tally) } : null,
    evaluation_goal_id: s.evaluation_goal_id,
    evolution_paused: s.evolution_paused,
    created_at: s.created_at,
    updated_at: s.updated_at,
  };
}

export function voteView(vote: VoteRecord): VoteView {
  return {
    id: vote.vote_id,
    experiment_id: vote.experiment_id,
    voter_id: vote.voter_id,
    voter_type: vote.voter_type,
    vote_value: vote.vote_value,
    confidence: vote.confidence,
    reasoning: escapeHtml(vote.reasoning),
    suggestion: escapeHtml(vote.suggestion),
    constitutional_check: vote.constitutional_check,
    created_at: vote.created_at,
    updated_at: vote.updated_at,
  };
}

export type ExperimentDetail = ExperimentView & { votes: VoteView[]; tally: Tally };

export type DiscoveredExperiment = ExperimentView & {
  discovery_score: number;
  view_count: number;
  comment_count: number;
  upvotes: number;
  downvotes: number;
  author: UserView | null;
};

export interface ExperimentMetrics {
  experiment_id: string;
  experiment_type: string;
  contributor_count: number;
  funding_total: number;
  total_votes: number;
  status: ExperimentStatus;
  human_voters: number;
  agent_voters: number;
  vote_distribution: { support: number; oppose: number; neutral: number };
  view_count: number;
  comment_count: number;
  compute_nodes: number;
  total_gpu_hours: number;
  total_inferences: number;
}

export interface ExperimentTimeline {
  experiment_id: string;
  status: ExperimentStatus;
  created_at: string;
  voting_opens_at: string;
  voting_closes_at: string;
  evaluation_deadline: string;
  is_voting_open: boolean;
  /** seconds until voting opens; 0 once it has */
  time_until_voting: number;
}

const sourceOfDoc = (doc: ExperimentDoc): ExperimentSource => doc;

@Injectable()
export class ExperimentsQueries {
  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    private readonly accounts: AccountsQueries,
  ) {}

  private experiments() {
    return this.store.collection<ExperimentDoc>(EXPERIMENTS);
  }

  private votes() {
    return this.store.collection<ExperimentVoteDoc>(EXPERIMENT_VOTES);
  }

  async doc(experimentId: string): Promise<ExperimentDoc | null> {
    return this.experiments().findOne({ _id: String(experimentId) });
  }

  /** GET /experiments: newest first; without a status, archived ones are left out. */
  async list(status: ExperimentStatus | null, limit: number): Promise<ExperimentView[]> {
    const docs = await this.experiments().find(status ? { status } : { status: { $ne: 'archived' } }, { sort: { created_at: -1 }, limit });
    return docs.map((doc) => experimentView(sourceOfDoc(doc)));
  }

  /** How many experiments their owners paused the evolution of. */
  pausedCount(): Promise<number> {
    return this.experiments().countDocuments({ evolution_paused: true });
  }

  /** GET /experiments/core-ip: newest first (the newest 200). */
  async coreIp(): Promise<ExperimentView[]> {
    const docs = await this.experiments().find({ is_core_ip: true }, { sort: { created_at: -1 }, limit: DISCOVERY_POOL });
    return docs.map((doc) => experimentView(sourceOfDoc(doc)));
  }

  /** The votes on an experiment, oldest first. */
  async votesOf(experimentId: string): Promise<ExperimentVoteDoc[]> {
    return this.votes().find({ experiment_id: String(experimentId) }, { sort: { created_at: 1 } });
  }

  /** GET /experiments/{id}: with its votes and their tally; null for an unknown id. */
  async detail(experimentId: string): Promise<ExperimentDetail | null> {
    const [doc, votes] = await Promise.all([this.doc(experimentId), this.votesOf(experimentId)]);
    if (!doc) return null;
    const tally = tallyVotes(doc.experiment_id, doc.decision_context, votes);
    return { ...experimentView(sourceOfDoc(doc)), votes: votes.map(voteView), tally: tallyView(tally) };
  }

  async metrics(experimentId: string): Promise<ExperimentMetrics | null> {
    const [doc, votes] = await Promise.all([this.doc(experimentId), this.votesOf(experimentId)]);
    if (!doc) return null;
    const post = await this.store.collection<PostDoc>(POSTS).findOne({ _id: doc.post_id });
    const views = await viewsOf(this.store, [doc.post_id]);
    return {
      experiment_id: doc.experiment_id,
      experiment_type: doc.experiment_type,
      contributor_count: doc.contributor_count,
      funding_total: doc.funding_total,
      total_votes: doc.total_votes,
      status: doc.status,
      human_voters: votes.filter((v) => v.voter_type === 'human').length,
      agent_voters: votes.filter((v) => v.voter_type === 'agent').length,
      vote_distribution: {
        support: votes.filter((v) => v.vote_value > 0).length,
        oppose: votes.filter((v) => v.vote_value < 0).length,
        neutral: votes.filter((v) => v.vote_value === 0).length,
      },
      view_count: views.get(doc.post_id) ?? 0,
      comment_count: post?.comment_count ?? 0,
      // no compute is metered per experiment on this node (docs/api.md)
      compute_nodes: 0,
      total_gpu_hours: 0,
      total_inferences: 0,
    };
  }

  async timeline(experimentId: string, now: Date): Promise<ExperimentTimeline | null> {
    const doc = await this.doc(experimentId);
    if (!doc) return null;
    const opens = Date.parse(doc.voting_opens_at);
    const closes = Date.parse(doc.voting_closes_at);
    const t = now.getTime();
    return {
      experiment_id: doc.experiment_id,
      status: doc.status,
      created_at: doc.created_at,
      voting_opens_at: doc.voting_opens_at,
      voting_closes_at: doc.voting_closes_at,
      evaluation_deadline: doc.evaluation_deadline,
      is_voting_open: opens <= t && t <= closes,
      time_until_voting: t < opens ? (opens - t) / 1000 : 0,
    };
  }

  /** The viewer's votes and posts per intent category, and the users bonded with the viewer at level 3 or more. */
  private async viewer(userId: string): Promise<Viewer & { intentCounts: Record<string, number> }> {
    const [votes, posts, bonds] = await Promise.all([
      this.votes().find({ voter_id: userId }),
      this.store.collection<PostDoc>(POSTS).find({ author_id: userId, intent_category: { $ne: null } }),
      this.store.collection<SocialEncounterDoc>(SOCIAL_ENCOUNTERS).find({ $or: [{ user_a_id: userId }, { user_b_id: userId }] }),
    ]);
    const intents: Record<string, number> = {};
    for (const category of [...votes.map((v) => v.intent_category), ...posts.filter((p) => !p.is_deleted).map((p) => p.intent_category as string)]) {
      intents[category] = (intents[category] ?? 0) + 1;
    }
    const bonded = new Set(bonds.filter((b) => b.bond_level >= BOND_BONUS_LEVEL).map((b) => (b.user_a_id === userId ? b.user_b_id : b.user_a_id)));
    return { intents, bonded, intentCounts: intents };
  }

  /**
   * GET /experiments/discover (§21.1): the 200 newest non-archived experiments
   * that pass the filters, scored for the viewer, best first, then a page.
   */
  async discover(query: DiscoverQuery, page: Page, now: Date): Promise<{ items: DiscoveredExperiment[]; total: number; userIntents: Record<string, number> }> {
    const filter: Record<string, unknown> = { status: query.status ? query.status : { $ne: 'archived' } };
    if (query.status === 'archived') return { items: [], total: 0, userIntents: {} };
    if (query.intentCategory !== null) filter.intent_category = query.intentCategory;
    if (query.experimentType !== null) filter.experiment_type = query.experimentType;
    const [pool, viewer] = await Promise.all([
      this.experiments().find(filter, { sort: { created_at: -1 }, limit: DISCOVERY_POOL }),
      query.userId ? this.viewer(query.userId) : Promise.resolve({ ...NO_VIEWER, intentCounts: {} }),
    ]);
    const scored = pool
      .map((doc) => ({ doc, score: discoveryScore(doc, viewer, now) }))
      .sort((a, b) => b.score - a.score || b.doc.created_at.localeCompare(a.doc.created_at));
    const pageDocs = scored.slice(page.offset, page.offset + page.limit);
    const postIds = pageDocs.map(({ doc }) => doc.post_id);
    const [posts, views, authors] = await Promise.all([
      this.store.collection<PostDoc>(POSTS).find({ _id: { $in: postIds } }),
      viewsOf(this.store, postIds),
      this.accounts.usersByIds(pageDocs.map(({ doc }) => doc.creator_id)),
    ]);
    const postById = new Map(posts.map((post) => [post.id, post]));
    const items = pageDocs.map(({ doc, score }): DiscoveredExperiment => {
      const post = postById.get(doc.post_id);
      const author = authors.get(doc.creator_id);
      return {
        ...experimentView(sourceOfDoc(doc)),
        discovery_score: score,
        view_count: views.get(doc.post_id) ?? 0,
        comment_count: post?.comment_count ?? 0,
        upvotes: post?.upvotes ?? 0,
        downvotes: post?.downvotes ?? 0,
        author: author ? toUserView(author, false) : null,
      };
    });
    return { items, total: scored.length, userIntents: viewer.intentCounts };
  }
}
