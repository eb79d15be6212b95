/**
 * Events of the agent pipeline (SPEC §2.1, §2.2, §4.1; issue 7).
 *
 * - `conversation-<userId>/<promptId>`: one conversation (agent session):
 *   every prompt (redacted) and response, the CREATE stages (gathering the
 *   agent's configuration, review, completed), history added by clients,
 *   blocked prompts (without their text) and speculative expert runs.
 * - `recipe-<userId>/<promptId>`: the recipe saved for that prompt id: its
 *   name, goal, flows and actions (tool + input per action), versions, and
 *   every run of it (CREATE's first run, later REUSE runs).
 *
 * `/` separates the two ids: a prompt id is `[A-Za-z0-9_-]` only and a user
 * id never holds `/` (checked at the edge).
 */
import type { DomainEvent } from '../shared/decider';

export type TaskSource = 'own' | 'hive' | 'idle';
export const TASK_SOURCES: readonly TaskSource[] = ['own', 'hive', 'idle'];

/** How a prompt was handled. */
export type ChatMode = 'create' | 'reuse' | 'casual';

/** Where a conversation's CREATE flow stands. */
export type CreationStage = 'none' | 'gathering' | 'review' | 'completed';

/** The stage a response was given in. */
export type ResponseStage = 'gathering' | 'review' | 'completed' | 'reused' | 'casual' | 'speculative' | 'expert' | 'scheduled' | 'visual';

export type ActionStatus = 'completed' | 'needs_model' | 'failed';

/** One action of a recipe: what to do, with which tool (null: a language model's job), on which input. */
export interface RecipeAction {
  index: number;
  description: string;
  tool: string | null;
  input: string;
}

export interface RecipeFlow {
  flow_id: string;
  actions: RecipeAction[];
}

/** The agent's configuration gathered in CREATE's Creation Mode. */
export interface AgentDraft {
  name: string;
  goal: string;
  actions: RecipeAction[];
}

export interface Redaction {
  kind: string;
  count: number;
}

export interface HistoryMessage {
  role: 'user' | 'assistant';
  content: string;
}

export type PromptReceived = DomainEvent<
  'PromptReceived',
  {
    message_id: string;
    user_id: string;
    prompt_id: string;
    /** the redacted prompt: the only form stored or sent to a model */
    prompt: string;
    redactions: Redaction[];
    mode: ChatMode;
    task_source: TaskSource;
    create_agent: boolean;
    autonomous: boolean;
    speculative: boolean;
    casual_conv: boolean;
    /** model_config.model when the request overrode the model, else null */
    model: string | null;
    /** what brought the prompt: a client, the scheduler, a goal */
    origin: 'http' | 'mcp' | 'schedule' | 'goal' | 'visual' | 'a2a';
    received_at: string;
  }
>;

/** A prompt the guardrail refused; its text is deliberately not recorded. */
export type PromptBlocked = DomainEvent<
  'PromptBlocked',
  { message_id: string; user_id: string; prompt_id: string; category: string; blocked_at: string }
>;

export type AgentDraftProposed = DomainEvent<
  'AgentDraftProposed',
  { message_id: string; draft: AgentDraft; proposed_at: string }
>;

export type AgentReviewRequested = DomainEvent<
  'AgentReviewRequested',
  { message_id: string; draft: AgentDraft; requested_at: string }
>;

export type AgentCreationCompleted = DomainEvent<
  'AgentCreationCompleted',
  { message_id: string; recipe_id: string; version: number; completed_at: string }
>;

export type ResponseGiven = DomainEvent<
  'ResponseGiven',
  {
    message_id: string;
    user_id: string;
    prompt_id: string;
    response: string;
    flow_id: string;
    stage: ResponseStage;
    actions_completed: number;
    recipe_saved: boolean;
    /** 'offline': no language model produced this text */
    source: 'model' | 'offline';
    model: string;
    prompt_tokens: number;
    completion_tokens: number;
    /** what this response cost, in micro-dollars (integer) */
    cost_micro_usd: number;
    responded_at: string;
  }
>;

/**
 * A priced response charged to its user (what the budget gate counts). Only
 * a response that cost something records one, so a free turn (offline, or a
 * local model at price 0) feeds no read model and answers without waiting
 * for one.
 */
export type UsageCharged = DomainEvent<
  'UsageCharged',
  { message_id: string; user_id: string; prompt_id: string; model: string; cost_micro_usd: number; charged_at: string }
>;

export type HistoryAppended = DomainEvent<'HistoryAppended', { messages: HistoryMessage[]; appended_at: string }>;

/** Speculative dispatch: the fast reply went out; an expert run is wanted. */
export type ExpertRunRequested = DomainEvent<
  'ExpertRunRequested',
  { run_id: string; message_id: string; user_id: string; prompt_id: string; prompt: string; model: string | null; requested_at: string }
>;

export type ConversationEvent =
  | PromptReceived
  | PromptBlocked
  | AgentDraftProposed
  | AgentReviewRequested
  | AgentCreationCompleted
  | ResponseGiven
  | UsageCharged
  | HistoryAppended
  | ExpertRunRequested;

export type RecipeCreated = DomainEvent<
  'RecipeCreated',
  {
    recipe_id: string;
    user_id: string;
    prompt_id: string;
    name: string;
    goal: string;
    flows: RecipeFlow[];
    version: number;
    created_at: string;
  }
>;

export type RecipeActionCompleted = DomainEvent<
  'RecipeActionCompleted',
  {
    recipe_id: string;
    version: number;
    run_id: string;
    flow_id: string;
    action_index: number;
    tool: string | null;
    status: ActionStatus;
    output: string;
    completed_at: string;
  }
>;

export type RecipeSaved = DomainEvent<
  'RecipeSaved',
  { recipe_id: string; version: number; run_id: string; actions_completed: number; saved_at: string }
>;

export type RecipeReused = DomainEvent<
  'RecipeReused',
  { recipe_id: string; version: number; run_id: string; actions_completed: number; reused_at: string }
>;

export type RecipeEvent = RecipeCreated | RecipeActionCompleted | RecipeSaved | RecipeReused;

export type ChatEvent = ConversationEvent | RecipeEvent;

export const PROMPT_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const USER_ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;

export function conversationStreamId(userId: string, promptId: string): string {
  return `conversation-${userId}/${promptId}`;
}

export function recipeStreamId(userId: string, promptId: string): string {
  return `recipe-${userId}/${promptId}`;
}
