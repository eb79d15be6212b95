/**
 * The one entry point of the agent pipeline (issue 7): POST /chat, a due
 * scheduled prompt and a goal's sub-task all run a prompt through it, so the
 * guardrail, the secret redaction, the budget gate and the CREATE / REUSE
 * logic apply the same way to each.
 *
 * `messageId` makes a run idempotent: running the same message id twice
 * records it once and answers the first run's response again (the scheduler
 * relies on that for exactly-once; HTTP requests get a fresh id).
 */
import type { TaskSource } from '../../aggregates/chat/chat.events';
import type { CommandContext } from '../common/command-executor';

export interface ModelConfig {
  /** the model for this call (any model id the configured server knows) */
  model?: string;
  /** the fast model of a speculative reply */
  fast_model?: string;
  /** the expert model of a speculative background run */
  expert_model?: string;
}

export interface ChatRequest {
  /** the request's correlation id, sent with the model calls of the turn (set by the pipeline from the command context) */
  correlationId?: string;
  userId: string;
  promptId: string;
  prompt: string;
  createAgent: boolean;
  taskSource: TaskSource;
  modelConfig: ModelConfig | null;
  autonomous: boolean;
  speculative: boolean;
  casualConv: boolean;
  /** idempotency key of this run; a fresh one per HTTP request */
  messageId: string;
  origin: 'http' | 'mcp' | 'schedule' | 'goal' | 'a2a';
}

/**
 * A plain turn with SPEC §2.1's defaults (no forced CREATE, own task source,
 * no model override, no autonomous, speculative or casual mode): what the
 * pipeline's non-HTTP callers send (scheduled prompts, A2A tasks).
 */
export function plainTurn(turn: Pick<ChatRequest, 'userId' | 'promptId' | 'prompt' | 'messageId' | 'origin'>): ChatRequest {
  return { ...turn, createAgent: false, taskSource: 'own', modelConfig: null, autonomous: false, speculative: false, casualConv: false };
}

/** SPEC §2.1 chat response. */
export interface ChatReply {
  response: string;
  prompt_id: string;
  flow_id: string;
  actions_completed: number;
  recipe_saved: boolean;
}

/** POST /visual_agent: a prompt about an image (a casual turn of the conversation). */
export type VisualRequest = Pick<ChatRequest, 'userId' | 'promptId' | 'prompt' | 'messageId'> & { imageUrl: string };

export interface VisualReply {
  response: string;
  prompt_id: string;
  source: 'model' | 'offline';
}

export abstract class ChatPipeline {
  abstract run(request: ChatRequest, context: CommandContext): Promise<ChatReply>;
}
