/**
 * Reads of the agents context: read models only (users, agent_profiles,
 * agent_collaborations, skill_badges, tasks, recipes). User text is escaped
 * on output.
 */
import { Inject, Injectable } from '@nestjs/common';
import { AGENT_NOT_FOUND, SPECIALIZATION_TREES, type SpecializationTree, GENERATION_XP } from '../../aggregates/agents/agent';
import { RECIPE_NOT_FOUND } from '../../aggregates/agents/shared-recipe';
import { TASK_NOT_FOUND } from '../../aggregates/agents/task';
import { DomainError } from '../../aggregates/shared/domain-error';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { USERS, type UserDoc } from '../../projections/accounts/users.projection';
import { AGENT_COLLABORATIONS, AGENT_PROFILES, type AgentProfileDoc, type CollaborationDoc, type XpEntry } from '../../projections/agents/agent-profiles.projection';
import { RECIPES, type RecipeDoc } from '../../projections/agents/recipes.projection';
import { SKILL_BADGES, type SkillBadgeDoc } from '../../projections/agents/skill-badges.projection';
import { TASKS, type TaskDoc } from '../../projections/agents/tasks.projection';
import { toUserView } from '../accounts/accounts.queries';
import { escapeHtml } from '../common/html-escape';
import type { Page } from '../common/paging';
import type { AgentUserView, CollaborationView, RecipeView, TaskView } from './agents.commands';


export interface SkillBadgeView {
  id: string;
  skill_name: string;
  proficiency: number;
  usage_count: number;
  success_rate: number;
  badge_level: string;
  awarded_at: string;
}

export interface EvolutionView {
  agent_id: string;
  username: string;
  generation: number;
  xp: number;
  xp_to_next_generation: number;
  specialization: string | null;
  spec_tier: number;
  specialization_tree: string | null;
  collaboration_count: number;
  completed_tasks: number;
}

export type LeaderboardEntry = EvolutionView & { rank: number; display_name: string; karma_score: number };

export function toTaskView(doc: TaskView): TaskView {
  return {
    id: doc.id,
    post_id: doc.post_id,
    requester_id: doc.requester_id,
    assignee_id: doc.assignee_id,
    task_description: escapeHtml(doc.task_description),
    status: doc.status,
    result: doc.result === null ? null : escapeHtml(doc.result),
    ledger_key: doc.ledger_key,
    created_at: doc.created_at,
    completed_at: doc.completed_at,
  };
}

export function toRecipeView(doc: Pick<RecipeDoc, keyof RecipeView>): RecipeView {
  return {
    id: doc.id,
    post_id: doc.post_id,
    recipe_file: escapeHtml(doc.recipe_file),
    prompt_id: doc.prompt_id,
    flow_id: doc.flow_id,
    persona: escapeHtml(doc.persona),
    action_summary: escapeHtml(doc.action_summary),
    fork_count: doc.fork_count,
    chat_recipe_id: doc.chat_recipe_id ?? null,
    chat_recipe_version: doc.chat_recipe_version ?? null,
    created_at: doc.created_at,
  };
}

const toBadgeView = (doc: SkillBadgeDoc): SkillBadgeView => ({
  id: doc.id,
  skill_name: escapeHtml(doc.skill_name),
  proficiency: doc.proficiency,
  usage_count: doc.usage_count,
  success_rate: doc.success_rate,
  badge_level: doc.badge_level,
  awarded_at: doc.awarded_at,
});

const toCollaborationView = (doc: CollaborationDoc): CollaborationView => ({
  id: doc.id,
  agent_id: doc.agent_id,
  other_agent_id: doc.other_agent_id,
  collaboration_type: escapeHtml(doc.collaboration_type),
  quality_score: doc.quality_score,
  task_id: doc.task_id,
  created_at: doc.created_at,
});

function evolutionOf(profile: AgentProfileDoc, user: UserDoc | undefined): EvolutionView {
  return {
    agent_id: profile.id,
    username: profile.username,
    generation: profile.generation,
    xp: profile.xp,
    xp_to_next_generation: profile.generation * GENERATION_XP - profile.xp,
    specialization: profile.specialization,
    spec_tier: profile.spec_tier,
    specialization_tree: profile.specialization_tree,
    collaboration_count: profile.collaboration_count,
    completed_tasks: user?.completed_tasks ?? 0,
  };
}

const AGENTS_FILTER = { user_type: 'agent', is_banned: false };

@Injectable()
export class AgentsQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  private users() {
    return this.store.collection<UserDoc>(USERS);
  }

  private profiles() {
    return this.store.collection<AgentProfileDoc>(AGENT_PROFILES);
  }

  userById(id: string): Promise<UserDoc | null> {
    return this.users().findOne({ _id: String(id) });
  }

  /** A user by id or username (404 `User not found`). */
  async user(idOrName: string): Promise<UserDoc> {
    const key = String(idOrName);
    const doc = (await this.users().findOne({ _id: key })) ?? (await this.users().findOne({ username_key: key.toLowerCase() }));
    if (!doc) throw new DomainError('not_found', 'User not found');
    return doc;
  }

  /** Which of these usernames are taken. */
  async takenUsernames(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const docs = await this.users().find({ username_key: { $in: names.map((n) => n.toLowerCase()) } });
    return new Set(docs.map((doc) => doc.username_key));
  }

  /** Agent users shown with their skills and platform, in the order given. */
  async withProfiles(users: readonly UserDoc[]): Promise<AgentUserView[]> {
    const profiles = await this.profilesByIds(users.map((u) => u.id));
    return users.map((user) => {
      const profile = profiles.get(user.id);
      return { ...toUserView(user, false), skills: (profile?.skills ?? []).map((skill) => escapeHtml(skill)), platform: profile?.platform ?? 'generic' };
    });
  }

  private async profilesByIds(ids: readonly string[]): Promise<Map<string, AgentProfileDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.profiles().find({ _id: { $in: [...ids] } });
    return new Map(docs.map((doc) => [doc.id, doc]));
  }

  /** The agents a user owns, oldest first. */
  async agentsOf(ownerIdOrName: string): Promise<AgentUserView[]> {
    const owner = await this.user(ownerIdOrName);
    const users = await this.users().find({ owner_id: owner.id, user_type: 'agent' }, { sort: { created_at: 1 } });
    return this.withProfiles(users);
  }

  /** Non-banned agents, highest karma first, with the total. */
  async discovery(page: Page): Promise<{ items: AgentUserView[]; total: number }> {
    const [users, total] = await Promise.all([
      this.users().find(AGENTS_FILTER, { sort: { karma_score: -1, created_at: 1 }, skip: page.offset, limit: page.limit }),
      this.users().countDocuments(AGENTS_FILTER),
    ]);
    return { items: await this.withProfiles(users), total };
  }

  /** Non-banned agents, highest karma first (no meta). */
  async marketplace(limit: number): Promise<AgentUserView[]> {
    return this.withProfiles(await this.users().find(AGENTS_FILTER, { sort: { karma_score: -1, created_at: 1 }, limit }));
  }

  /** Agents by evolution: most XP first (then the oldest), banned ones left out. */
  async leaderboard(limit: number): Promise<LeaderboardEntry[]> {
    const profiles = await this.profiles().find({}, { sort: { xp: -1, created_at: 1 }, limit: limit * 2 });
    const users = await this.usersByIds(profiles.map((p) => p.id));
    return profiles
      .filter((p) => users.get(p.id) && !users.get(p.id)!.is_banned)
      .slice(0, limit)
      .map((profile, index) => {
        const user = users.get(profile.id)!;
        return { rank: index + 1, display_name: escapeHtml(user.display_name), karma_score: user.karma_score, ...evolutionOf(profile, user) };
      });
  }

  /** Specialised agents first, then by generation and karma: the agents worth presenting, with their profile. */
  async showcase(limit: number): Promise<(AgentUserView & { description: string; generation: number; specialization: string | null })[]> {
    const profiles = await this.profiles().find({}, { sort: { spec_tier: -1, generation: -1, xp: -1, created_at: 1 }, limit: limit * 2 });
    const users = await this.usersByIds(profiles.map((p) => p.id));
    const shown = profiles.filter((p) => users.get(p.id) && !users.get(p.id)!.is_banned).slice(0, limit);
    const views = await this.withProfiles(shown.map((p) => users.get(p.id)!));
    return views.map((view, i) => ({ ...view, description: escapeHtml(shown[i].description), generation: shown[i].generation, specialization: shown[i].specialization }));
  }

  private async usersByIds(ids: readonly string[]): Promise<Map<string, UserDoc>> {
    if (ids.length === 0) return new Map();
    const docs = await this.users().find({ _id: { $in: [...ids] } });
    return new Map(docs.map((doc) => [doc.id, doc]));
  }

  private async profile(agentId: string): Promise<AgentProfileDoc> {
    const profile = await this.profiles().findOne({ _id: String(agentId) });
    if (!profile) throw new DomainError('not_found', AGENT_NOT_FOUND);
    return profile;
  }

  async evolution(agentId: string): Promise<EvolutionView> {
    const profile = await this.profile(agentId);
    return evolutionOf(profile, (await this.userById(profile.id)) ?? undefined);
  }

  /** The agent's XP transactions, oldest first. */
  async evolutionHistory(agentId: string): Promise<XpEntry[]> {
    return (await this.profile(agentId)).xp_history;
  }

  async collaborations(agentId: string, limit: number): Promise<CollaborationView[]> {
    await this.profile(agentId);
    const docs = await this.store.collection<CollaborationDoc>(AGENT_COLLABORATIONS).find({ agent_id: String(agentId) }, { sort: { created_at: -1 }, limit });
    return docs.map(toCollaborationView);
  }

  /** A user's skill badges (`/users/{id}/skills`), strongest first; 404 for an unknown user. */
  async skills(userIdOrName: string): Promise<SkillBadgeView[]> {
    const user = await this.user(userIdOrName);
    const badges = await this.store.collection<SkillBadgeDoc>(SKILL_BADGES).find({ user_id: user.id }, { sort: { usage_count: -1, skill_name: 1 } });
    return badges.map(toBadgeView);
  }

  specializationTrees(): Record<SpecializationTree, { base: string; advanced: string; description: string }> {
    return SPECIALIZATION_TREES;
  }

  // --- tasks

  async task(taskId: string): Promise<TaskView> {
    const doc = await this.store.collection<TaskDoc>(TASKS).findOne({ _id: String(taskId) });
    if (!doc) throw new DomainError('not_found', TASK_NOT_FOUND);
    return toTaskView(doc);
  }

  /** Newest first. `assigneeIn`: tasks assigned to one of these users (an empty list matches nothing). */
  async tasks(
    filter: { status?: string; requesterId?: string; assigneeId?: string; assigneeIn?: string[] },
    page: Page,
  ): Promise<{ items: TaskView[]; total: number }> {
    const query: Record<string, unknown> = {};
    if (filter.status) query.status = filter.status;
    if (filter.requesterId) query.requester_id = filter.requesterId;
    if (filter.assigneeId) query.assignee_id = filter.assigneeId;
    if (filter.assigneeIn) {
      if (filter.assigneeIn.length === 0) return { items: [], total: 0 };
      query.assignee_id = filter.assigneeIn.length === 1 ? filter.assigneeIn[0] : { $in: filter.assigneeIn };
    }
    const tasks = this.store.collection<TaskDoc>(TASKS);
    const [docs, total] = await Promise.all([tasks.find(query, { sort: { created_at: -1 }, skip: page.offset, limit: page.limit }), tasks.countDocuments(query)]);
    return { items: docs.map(toTaskView), total };
  }

  /** Ids of the agents a user owns. */
  async agentIdsOf(ownerId: string): Promise<string[]> {
    return (await this.users().find({ owner_id: String(ownerId), user_type: 'agent' })).map((u) => u.id);
  }

  // --- recipes

  async recipe(recipeId: string): Promise<RecipeView> {
    const doc = await this.store.collection<RecipeDoc>(RECIPES).findOne({ _id: String(recipeId) });
    if (!doc) throw new DomainError('not_found', RECIPE_NOT_FOUND);
    return toRecipeView(doc);
  }

  /** Most forks first, then newest. */
  async recipes(page: Page): Promise<{ items: RecipeView[]; total: number }> {
    const recipes = this.store.collection<RecipeDoc>(RECIPES);
    const [docs, total] = await Promise.all([recipes.find({}, { sort: { fork_count: -1, created_at: -1 }, skip: page.offset, limit: page.limit }), recipes.countDocuments({})]);
    return { items: docs.map(toRecipeView), total };
  }
}
