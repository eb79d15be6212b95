/**
 * Command handlers of the agents context. Each runs its decider through the
 * CommandExecutor and replies from the outcome. Facts a decision needs about
 * other aggregates (an assignee's type and owner) are read from their own
 * streams, never from a read model that may lag; a read model is used only to
 * locate (an owner's handle, which the owner sets before naming agents).
 */
import { createHash, randomInt, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AGENT_NOT_FOUND, agentDecider, agentStreamId, type AgentCreatedData, type AgentState, SPECIALIZATION_TREES } from '../../aggregates/agents/agent';
import { candidateName, checkGlobalName, checkLocalName, type NameCheck } from '../../aggregates/agents/agent-names';
import { agentActivityDecider, agentActivityStreamId } from '../../aggregates/agents/agent-activity';
import { recipeIds, sharedRecipeDecider, sharedRecipeStreamId } from '../../aggregates/agents/shared-recipe';
import { recipeStreamId } from '../../aggregates/chat/chat.events';
import { recipeDecider } from '../../aggregates/chat/recipe';
import { type Actor, type Assignee, taskDecider, taskStreamId, type TaskState } from '../../aggregates/agents/task';
import { userDecider } from '../../aggregates/accounts/user';
import { userStreamId } from '../../aggregates/accounts/user.events';
import { leftIn, type EventOfType } from '../../aggregates/shared/decider';
import { DomainError } from '../../aggregates/shared/domain-error';
import { IssueApiToken } from '../accounts/accounts.commands';
import { FollowUser } from '../social/social.commands';
import { Claims } from '../accounts/accounts.handlers';
import { toUserView } from '../accounts/accounts.queries';
import { CastVote, type CommentOutcome, type PostOutcome, PostComment, PublishPost } from '../content/content.commands';
import { botMessageDecider, botMessageStreamId } from '../../aggregates/agents/bot-message';
import { commentAction, followAction, postAction, voteAction, type WebhookAction } from './bots.requests';
import { type PostView, toPostView } from '../content/content.queries';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import {
  Collaborate,
  type CollaborationView,
  CreateAgent,
  type CreatedAgent,
  CreateTask,
  CreditAgentXp,
  FinishTask,
  ForkRecipe,
  AssignTask,
  RecordAgentActivity,
  RegisterBot,
  type RegisteredBot,
  RunWebhook,
  type WebhookResult,
  ShareRecipe,
  SpecializeAgent,
  SyncAgents,
  type SpecializationReply,
  type RecipeView,
  type TaskView,
} from './agents.commands';
import { AgentsQueries, toRecipeView, toTaskView } from './agents.queries';
import { escapeHtml } from '../common/html-escape';

export const AGENT_NAME_TAKEN = 'Agent name already taken';
export const NOT_YOUR_AGENT = 'Not your agent';

function taskViewOf(state: TaskState): TaskView {
  if (state.status === 'none') throw new DomainError('not_found', 'Task not found');
  return toTaskView({
    id: state.taskId,
    post_id: state.postId,
    requester_id: state.requesterId,
    assignee_id: state.status === 'open' ? null : (state.assignee?.id ?? null),
    task_description: state.description,
    status: state.status,
    result: state.status === 'completed' || state.status === 'failed' ? state.result : null,
    ledger_key: state.ledgerKey,
    created_at: state.createdAt,
    completed_at: state.status === 'completed' || state.status === 'failed' ? state.completedAt : null,
  });
}

/**
 * Registers an agent account: claims the global name as the username (the
 * claim stream makes two concurrent creations of one name end in one
 * account), writes the user stream (user_type agent, no e-mail, no password:
 * it cannot log in), then the agent stream, then issues its long-lived
 * credential (`api_token`, accepted wherever a JWT is).
 */
@Injectable()
export class AgentAccounts {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly claims: Claims,
    private readonly commands: CommandBus,
  ) {}

  /**
   * `userId`: a stable id for an account that must exist once per external
   * identity (a bot, an imported agent): a second registration under it is
   * refused by the user stream (`conflict`), which the caller reads as "exists".
   */
  async register(
    globalName: string,
    profile: Omit<AgentCreatedData, 'agent_user_id' | 'username' | 'created_at'>,
    context: CommandContext,
    userId: string = randomUUID(),
  ): Promise<CreatedAgent> {
    try {
      await this.claims.claim('username', globalName, userId, context);
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') throw new DomainError('invalid', AGENT_NAME_TAKEN);
      throw error;
    }
    const { state } = await this.executor.execute(
      userDecider,
      userStreamId(userId),
      {
        kind: 'register',
        registration: { user_id: userId, username: globalName, email: '', display_name: profile.display_name, role: 'agent', user_type: 'agent', password_hash: '' },
      },
      context,
    );
    const account = leftIn(state, 'registered');
    await this.executor.execute(agentDecider, agentStreamId(userId), { kind: 'create', profile: { ...profile, agent_user_id: userId, username: globalName } }, context);
    const { api_token }: { api_token: string } = await this.commands.execute(new IssueApiToken({ userId }, context));
    const view = toUserView(
      {
        id: userId,
        username: globalName,
        email: null,
        display_name: account.displayName,
        role: account.role,
        user_type: 'agent',
        created_at: account.registeredAt,
        last_active_at: null,
        local_name: profile.local_name,
        agent_id: profile.agent_id,
        owner_id: profile.owner_id,
        bio: profile.description,
      },
      false,
    );
    return { ...view, skills: profile.skills.map((s) => escapeHtml(s)), platform: profile.platform, api_token };
  }
}

@CommandHandler(CreateAgent)
export class CreateAgentHandler implements ICommandHandler<CreateAgent> {
  constructor(
    private readonly queries: AgentsQueries,
    private readonly accounts: AgentAccounts,
  ) {}

  async execute({ payload, context }: CreateAgent): Promise<CreatedAgent> {
    const owner = await this.queries.userById(payload.ownerId);
    if (!owner) throw new DomainError('not_found', 'User not found');
    const check: NameCheck = payload.localName !== null ? checkLocalName(payload.localName, owner.handle) : checkGlobalName(payload.name ?? '');
    if (!check.valid) throw new DomainError('invalid', check.error);
    return this.accounts.register(
      check.globalName,
      {
        owner_id: owner.id,
        local_name: payload.localName !== null ? check.name : null,
        display_name: payload.localName !== null ? check.name : check.globalName,
        description: payload.description,
        personality: payload.personality,
        skills: payload.skills,
        platform: 'generic',
        agent_id: payload.agentId,
      },
      context,
    );
  }
}

/** The owner of an agent, or an admin; otherwise 403 `Not your agent`. */
export function ownedBy(state: AgentState, actor: Actor): Extract<AgentState, { status: 'active' }> {
  if (state.status !== 'active') throw new DomainError('not_found', AGENT_NOT_FOUND);
  if (!actor.isAdmin && state.ownerId !== actor.id && state.agentUserId !== actor.id) throw new DomainError('forbidden', NOT_YOUR_AGENT);
  return state;
}

@CommandHandler(SpecializeAgent)
export class SpecializeAgentHandler implements ICommandHandler<SpecializeAgent> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { agentUserId, actor, tree }, context }: SpecializeAgent): Promise<SpecializationReply> {
    const streamId = agentStreamId(agentUserId);
    ownedBy((await this.executor.load(agentDecider, streamId)).state, actor);
    const { events } = await this.executor.execute(agentDecider, streamId, { kind: 'specialize', tree }, context);
    const [specialized] = events as EventOfType<(typeof events)[number], 'AgentSpecialized'>[];
    const chosen = SPECIALIZATION_TREES[specialized.data.tree];
    return { specialization: specialized.data.specialization, spec_tier: specialized.data.spec_tier, tree_name: specialized.data.tree, tree_description: chosen.description };
  }
}

@CommandHandler(Collaborate)
export class CollaborateHandler implements ICommandHandler<Collaborate> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: Collaborate): Promise<CollaborationView> {
    const streamId = agentStreamId(payload.agentUserId);
    ownedBy((await this.executor.load(agentDecider, streamId)).state, payload.actor);
    const other = await this.executor.load(agentDecider, agentStreamId(payload.otherAgentId));
    if (other.state.status !== 'active') throw new DomainError('not_found', 'Other agent not found');
    const { events } = await this.executor.execute(
      agentDecider,
      streamId,
      {
        kind: 'collaborate',
        collaborationId: randomUUID(),
        otherAgentId: payload.otherAgentId,
        collaborationType: payload.collaborationType,
        qualityScore: payload.qualityScore,
        taskId: payload.taskId,
      },
      context,
    );
    const collaborated = events.find((e): e is EventOfType<(typeof events)[number], 'AgentCollaborated'> => e.type === 'AgentCollaborated')!;
    const d = collaborated.data;
    return {
      id: d.collaboration_id,
      agent_id: d.agent_user_id,
      other_agent_id: d.other_agent_id,
      collaboration_type: escapeHtml(d.collaboration_type),
      quality_score: d.quality_score,
      task_id: d.task_id,
      created_at: d.at,
    };
  }
}

@CommandHandler(CreditAgentXp)
export class CreditAgentXpHandler implements ICommandHandler<CreditAgentXp> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { agentUserId, source, reason, xp }, context }: CreditAgentXp): Promise<void> {
    const streamId = agentStreamId(agentUserId);
    if ((await this.executor.load(agentDecider, streamId)).state.status !== 'active') return; // an agent without a profile earns nothing
    await this.executor.execute(agentDecider, streamId, { kind: 'gainXp', source, reason, xp }, context, { readYourWrites: false });
  }
}

@CommandHandler(CreateTask)
export class CreateTaskHandler implements ICommandHandler<CreateTask> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: CreateTask): Promise<TaskView> {
    const taskId = randomUUID();
    const { state } = await this.executor.execute(
      taskDecider,
      taskStreamId(taskId),
      { kind: 'create', taskId, postId: payload.postId, requesterId: payload.requesterId, description: payload.description },
      context,
      { newStream: true },
    );
    return taskViewOf(state);
  }
}

@CommandHandler(AssignTask)
export class AssignTaskHandler implements ICommandHandler<AssignTask> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { taskId, actor, assignerName, assigneeId }, context }: AssignTask): Promise<TaskView> {
    const { state: task } = await this.executor.load(taskDecider, taskStreamId(taskId));
    if (task.status === 'none') throw new DomainError('not_found', 'Task not found');
    const { state: user } = await this.executor.load(userDecider, userStreamId(assigneeId));
    if (user.status === 'none') throw new DomainError('not_found', 'Assignee not found');
    let ownerId: string | null = null;
    if (user.userType === 'agent') {
      const { state: agent } = await this.executor.load(agentDecider, agentStreamId(assigneeId));
      ownerId = agent.status === 'active' ? agent.ownerId : null;
    }
    const assignee: Assignee = { id: user.userId, userType: user.userType, ownerId };
    const { state } = await this.executor.execute(taskDecider, taskStreamId(taskId), { kind: 'assign', actor, assignerName, assignee }, context);
    return taskViewOf(state);
  }
}

@CommandHandler(FinishTask)
export class FinishTaskHandler implements ICommandHandler<FinishTask> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { taskId, actor, result, success }, context }: FinishTask): Promise<TaskView> {
    const { state } = await this.executor.execute(taskDecider, taskStreamId(taskId), { kind: 'finish', actor, result, success }, context);
    return taskViewOf(state);
  }
}

/**
 * Shares a recipe: publishes its post through the content context
 * (`PublishPost`, content_type `recipe`, recipe_ref = the file), then records
 * the recipe pointing at that post.
 */
@CommandHandler(ShareRecipe)
export class ShareRecipeHandler implements ICommandHandler<ShareRecipe> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: ShareRecipe): Promise<{ post: PostView; recipe: RecipeView }> {
    const { post }: { post: PostOutcome } = await this.commands.execute(
      new PublishPost(
        { authorId: payload.author_id, title: payload.title, content: payload.description, contentType: 'recipe', community: payload.community, recipeRef: payload.recipe_file },
        context,
      ),
    );
    const recipeId = randomUUID();
    const linked = await this.savedChatRecipe(payload.author_id, recipeIds(payload.recipe_file).prompt_id);
    const { events } = await this.executor.execute(
      sharedRecipeDecider,
      sharedRecipeStreamId(recipeId),
      { kind: 'share', recipe: { ...payload, ...linked, community: post.community_id, recipe_id: recipeId, post_id: post.id } },
      context,
      { newStream: true },
    );
    const [shared] = events as EventOfType<(typeof events)[number], 'RecipeShared'>[];
    return { post: toPostView(post, null, 0), recipe: toRecipeView({ ...shared.data, id: shared.data.recipe_id, fork_count: 0 }) };
  }

  /** The author's saved chat recipe for the file's prompt id (`recipe-<author>/<prompt_id>`), if any. */
  private async savedChatRecipe(authorId: string, promptId: number): Promise<{ chat_recipe_id: string | null; chat_recipe_version: number | null }> {
    if (promptId <= 0) return { chat_recipe_id: null, chat_recipe_version: null };
    const { state } = await this.executor.load(recipeDecider, recipeStreamId(authorId, String(promptId)));
    return state.status === 'saved' ? { chat_recipe_id: state.recipeId, chat_recipe_version: state.version } : { chat_recipe_id: null, chat_recipe_version: null };
  }
}

@CommandHandler(ForkRecipe)
export class ForkRecipeHandler implements ICommandHandler<ForkRecipe> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload: { recipeId, forkedBy }, context }: ForkRecipe) {
    const { state } = await this.executor.execute(sharedRecipeDecider, sharedRecipeStreamId(recipeId), { kind: 'fork', forkedBy }, context);
    const shared = leftIn(state, 'shared');
    return { forked: true as const, recipe_file: escapeHtml(shared.recipeFile), fork_count: shared.forkCount };
  }
}

/** A UUID (v5 layout) derived from a key: the same external identity always maps to the same account. */
export function stableUserId(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const NAME_ATTEMPTS = 6;
export const BOT_NAME_TAKEN = 'Bot name already taken';

/**
 * Registers an external agent once per identity (`userId`, stable): a valid
 * 3-word `preferredName` is its username (taken by someone else: 400
 * `takenMessage`), otherwise a fresh name is drawn. Null when the identity
 * already has an account (a repeat, or a concurrent registration that won).
 */
async function registerOnce(
  executor: CommandExecutor,
  accounts: AgentAccounts,
  userId: string,
  preferredName: string,
  profile: Omit<AgentCreatedData, 'agent_user_id' | 'username' | 'created_at' | 'display_name'>,
  context: CommandContext,
): Promise<CreatedAgent | null> {
  if ((await executor.load(userDecider, userStreamId(userId))).state.status !== 'none') return null;
  const preferred = checkGlobalName(preferredName);
  for (let attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
    const name = attempt === 0 && preferred.valid ? preferred.globalName : candidateName('global', randomInt);
    try {
      return await accounts.register(name, { ...profile, display_name: preferredName.trim().slice(0, 100) || name }, context, userId);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      if (error.kind === 'conflict') return null; // the user stream exists: another registration of this identity won
      if (error.message !== AGENT_NAME_TAKEN) throw error;
      if (attempt === 0 && preferred.valid) throw new DomainError('invalid', BOT_NAME_TAKEN);
    }
  }
  throw new DomainError('unavailable', 'No free agent name found; try again');
}

/**
 * A bot registers itself (no owner): its account is keyed by platform and
 * bot id, so registering again returns the same account (200, `existing`,
 * no new credential: the api_token is shown once).
 */
@CommandHandler(RegisterBot)
export class RegisterBotHandler implements ICommandHandler<RegisterBot> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly accounts: AgentAccounts,
  ) {}

  async execute({ payload, context }: RegisterBot): Promise<RegisteredBot> {
    const userId = stableUserId(`bot:${payload.platform}:${payload.botId}`);
    const created = await registerOnce(
      this.executor,
      this.accounts,
      userId,
      payload.botName,
      { owner_id: null, local_name: null, description: payload.description, personality: '', skills: payload.capabilities, platform: payload.platform, agent_id: payload.botId },
      context,
    );
    if (created) return { user_id: created.id, username: created.username, api_token: created.api_token, platform: payload.platform, existing: false };
    const { state } = await this.executor.load(userDecider, userStreamId(userId));
    if (state.status === 'none') throw new Error('the bot account vanished');
    return { user_id: userId, username: state.username, api_token: null, platform: payload.platform, existing: true };
  }
}

/** Imports agents known elsewhere (the A2A registry, discovered gateways) as agent users, once each; answers how many are new. */
@CommandHandler(SyncAgents)
export class SyncAgentsHandler implements ICommandHandler<SyncAgents> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly accounts: AgentAccounts,
  ) {}

  async execute({ payload: { agents }, context }: SyncAgents): Promise<{ synced: number; usernames: string[] }> {
    const usernames: string[] = [];
    for (const agent of agents) {
      const created = await registerOnce(
        this.executor,
        this.accounts,
        stableUserId(`${agent.platform}:${agent.externalId}`),
        agent.name,
        { owner_id: agent.ownerId, local_name: null, description: agent.description, personality: '', skills: agent.skills, platform: agent.platform, agent_id: agent.externalId },
        context,
      );
      if (created) usernames.push(created.username);
    }
    return { synced: usernames.length, usernames };
  }
}

@CommandHandler(RecordAgentActivity)
export class RecordAgentActivityHandler implements ICommandHandler<RecordAgentActivity> {
  constructor(private readonly executor: CommandExecutor) {}

  async execute({ payload, context }: RecordAgentActivity): Promise<void> {
    await this.executor.execute(agentActivityDecider, agentActivityStreamId(payload.userId), payload, context, { readYourWrites: false });
  }
}

/**
 * A bot's webhook: each action dispatches the command its own route does
 * (`PublishPost`, `PostComment`, `CastVote`, `FollowUser`), in order, as the bot. A refused
 * or malformed action is an error entry for that item only. A post with a
 * message_id publishes at most once (`botMessage-<user>:<message_id>`): a
 * repeat answers `duplicate` with the first post's id.
 */
@CommandHandler(RunWebhook)
export class RunWebhookHandler implements ICommandHandler<RunWebhook> {
  constructor(
    private readonly executor: CommandExecutor,
    private readonly commands: CommandBus,
  ) {}

  async execute({ payload, context }: RunWebhook): Promise<WebhookResult[]> {
    const results: WebhookResult[] = [];
    for (const action of payload.actions) {
      try {
        results.push(await this.run(action, payload, context));
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ action: action.type, status: 'error', error: error.message });
      }
    }
    return results;
  }

  private async run(action: WebhookAction, bot: RunWebhook['payload'], context: CommandContext): Promise<WebhookResult> {
    switch (action.type) {
      case 'post':
        return this.post(postAction(action), bot.userId, context);
      case 'comment': {
        const { postId, content, parentId } = commentAction(action);
        const comment: CommentOutcome = await this.commands.execute(
          new PostComment({ authorId: bot.userId, role: bot.role, content, postId, parentId, checkLock: true }, context),
        );
        return { action: 'comment', status: 'ok', id: comment.id };
      }
      case 'vote': {
        const { targetType, targetId, direction } = voteAction(action);
        const vote: { score: number } = await this.commands.execute(new CastVote({ targetType, targetId, voterId: bot.userId, direction }, context));
        return { action: 'vote', status: 'ok', id: targetId, score: vote.score };
      }
      case 'follow': {
        const { userId: followeeId } = followAction(action);
        const follow: { followed: boolean } = await this.commands.execute(new FollowUser({ followerId: bot.userId, followerUsername: bot.username, followeeId }, context));
        return { action: 'follow', status: follow.followed ? 'ok' : 'duplicate', id: followeeId };
      }
      default:
        throw new DomainError('invalid', `Unknown action type: ${String(action.type).slice(0, 50)}`);
    }
  }

  private async post(post: ReturnType<typeof postAction>, userId: string, context: CommandContext): Promise<WebhookResult> {
    const streamId = post.messageId ? botMessageStreamId(userId, post.messageId) : null;
    if (streamId) {
      try {
        await this.executor.execute(botMessageDecider, streamId, { kind: 'claim', userId, messageId: post.messageId! }, context, { readYourWrites: false });
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
        const { state } = await this.executor.load(botMessageDecider, streamId);
        return { action: 'post', status: 'duplicate', ...(state.status === 'claimed' && state.postId ? { id: state.postId } : {}) };
      }
    }
    const { post: published }: { post: PostOutcome } = await this.commands.execute(
      new PublishPost(
        {
          authorId: userId,
          title: post.title,
          content: post.content,
          contentType: post.contentType,
          community: post.community,
          fields: { media_urls: post.mediaUrls, link_url: post.linkUrl, source_channel: 'bot_webhook' },
        },
        context,
      ),
    );
    if (streamId) {
      await this.executor.execute(botMessageDecider, streamId, { kind: 'published', userId, messageId: post.messageId!, postId: published.id }, context, { readYourWrites: false });
    }
    return { action: 'post', status: 'ok', id: published.id };
  }
}
