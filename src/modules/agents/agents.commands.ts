/**
 * Commands of the agents context (agents, tasks, shared recipes), dispatched
 * on the @nestjs/cqrs CommandBus. The acting user always comes from the
 * credential; payloads are typed from the decider commands where the handler
 * does not derive them.
 */
import type { AgentCommand, Platform } from '../../aggregates/agents/agent';
import type { AgentActivityCommand } from '../../aggregates/agents/agent-activity';
import type { Role } from '../../aggregates/accounts/user.events';
import type { RecipeSharedData } from '../../aggregates/agents/shared-recipe';
import type { Actor } from '../../aggregates/agents/task';
import type { CommandInput } from '../../aggregates/shared/decider';
import type { UserView } from '../accounts/accounts.queries';
import { DomainCommand } from '../common/domain-command';
import type { PostView } from '../content/content.queries';
import type { TaskDoc } from '../../projections/agents/tasks.projection';

export type AgentUserView = UserView & { skills: string[]; platform: string };
export type CreatedAgent = AgentUserView & { api_token: string };

export interface CreateAgentPayload {
  ownerId: string;
  /** exactly one of the two: a 2-word local name (completed by the owner's handle) or a 3-word global name */
  localName: string | null;
  name: string | null;
  description: string;
  personality: string;
  skills: string[];
  agentId: string | null;
}

export class CreateAgent extends DomainCommand<CreateAgentPayload, CreatedAgent> {}

export interface SpecializationReply {
  specialization: string;
  spec_tier: number;
  tree_name: string;
  tree_description: string;
}

export class SpecializeAgent extends DomainCommand<{ agentUserId: string; actor: Actor } & CommandInput<AgentCommand, 'specialize'>, SpecializationReply> {}

export interface CollaborationView {
  id: string;
  agent_id: string;
  other_agent_id: string;
  collaboration_type: string;
  quality_score: number;
  task_id: string | null;
  created_at: string;
}

export class Collaborate extends DomainCommand<
  { agentUserId: string; actor: Actor } & Omit<CommandInput<AgentCommand, 'collaborate'>, 'collaborationId'>,
  CollaborationView
> {}

/** The Task record (social-routes §0.5). */
export interface TaskView {
  id: string;
  post_id: string;
  requester_id: string;
  assignee_id: string | null;
  task_description: string;
  status: TaskDoc['status'];
  result: string | null;
  ledger_key: string;
  created_at: string;
  completed_at: string | null;
}

export class CreateTask extends DomainCommand<{ requesterId: string; postId: string; description: string }, TaskView> {}

export class AssignTask extends DomainCommand<{ taskId: string; actor: Actor; assignerName: string; assigneeId: string }, TaskView> {}

export class FinishTask extends DomainCommand<{ taskId: string; actor: Actor; result: string; success: boolean }, TaskView> {}

export interface RecipeView {
  id: string;
  post_id: string;
  recipe_file: string;
  prompt_id: number;
  flow_id: number;
  persona: string;
  action_summary: string;
  fork_count: number;
  /** the sharer's saved chat recipe this file is, when there is one */
  chat_recipe_id: string | null;
  chat_recipe_version: number | null;
  created_at: string;
}

export class ShareRecipe extends DomainCommand<
  Pick<RecipeSharedData, 'author_id' | 'title' | 'description' | 'community' | 'recipe_file' | 'persona' | 'action_summary'>,
  { post: PostView; recipe: RecipeView }
> {}

export class ForkRecipe extends DomainCommand<{ recipeId: string; forkedBy: string }, { forked: true; recipe_file: string; fork_count: number }> {}

export interface RegisterBotPayload {
  botId: string;
  botName: string;
  platform: Platform;
  description: string;
  capabilities: string[];
}

export interface RegisteredBot {
  user_id: string;
  username: string;
  /** the credential, shown at the first registration only (null on a repeat) */
  api_token: string | null;
  platform: Platform;
  existing: boolean;
}

export class RegisterBot extends DomainCommand<RegisterBotPayload, RegisteredBot> {}

export interface ExternalAgent {
  platform: Platform;
  externalId: string;
  name: string;
  description: string;
  skills: string[];
  ownerId: string | null;
}

export class SyncAgents extends DomainCommand<{ agents: ExternalAgent[] }, { synced: number; usernames: string[] }> {}

export class RecordAgentActivity extends DomainCommand<AgentActivityCommand, void> {}

/** Credits XP to an agent once per source (the evolution saga, for a completed task). */
export class CreditAgentXp extends DomainCommand<{ agentUserId: string } & CommandInput<AgentCommand, 'gainXp'>, void> {}

export interface WebhookResult {
  action: string;
  status: 'ok' | 'duplicate' | 'error';
  id?: string;
  score?: number;
  error?: string;
}

/** A bot's batch of actions (POST /bots/webhook), each run as the route of its kind would, in order. */
export class RunWebhook extends DomainCommand<{ userId: string; username: string; role: Role; actions: (Record<string, unknown> & { type: string })[] }, WebhookResult[]> {}
