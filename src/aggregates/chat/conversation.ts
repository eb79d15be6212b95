/**
 * One conversation (agent session), stream `conversation-<userId>/<promptId>`.
 *
 * The pipeline computes a turn (tools, model calls: I/O) and hands the whole
 * turn to `decide` as one command, so a turn's events (the prompt, the CREATE
 * stage it moved to, the response) are appended together or not at all.
 * `decide` checks that the turn still fits the conversation: a message id
 * already answered records nothing (idempotent runs), and a turn computed
 * from a stage that another turn has since left is refused as a conflict.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';
import type { CreationState } from './agent-creation';
import type {
  AgentDraft,
  ConversationEvent,
  CreationStage,
  HistoryMessage,
  PromptReceived,
  ResponseGiven,
} from './chat.events';

/** How many recent messages the state keeps as context for a model. */
export const CONTEXT_MESSAGES = 20;

export type TurnResponse = Omit<ResponseGiven['data'], 'message_id' | 'user_id' | 'prompt_id' | 'responded_at'>;

export interface AnsweredTurn {
  response: string;
  flow_id: string;
  actions_completed: number;
  recipe_saved: boolean;
  source: 'model' | 'offline';
}

export interface ConversationState {
  creation: CreationState;
  /** message id → what was answered (idempotent runs) */
  answered: Record<string, AnsweredTurn>;
  /** the latest messages, oldest first, at most CONTEXT_MESSAGES */
  context: HistoryMessage[];
  /** expert run id → answered yet */
  expertRuns: Record<string, boolean>;
  messageCount: number;
}

/** What a turn does to the CREATE flow. */
export type StageMove =
  | { kind: 'stay' }
  | { kind: 'propose'; draft: AgentDraft }
  | { kind: 'review'; draft: AgentDraft }
  | { kind: 'complete'; recipeId: string; version: number };

export type ConversationCommand =
  | {
      kind: 'takeTurn';
      received: Omit<PromptReceived['data'], 'received_at'>;
      /** the stage the turn was computed from */
      fromStage: CreationStage;
      move: StageMove;
      response: TurnResponse;
      /** speculative dispatch: the expert run wanted after the fast reply */
      expertRun: { runId: string; model: string | null } | null;
    }
  | { kind: 'block'; messageId: string; userId: string; promptId: string; category: string }
  | { kind: 'appendHistory'; messages: HistoryMessage[] }
  | {
      kind: 'answerExpertRun';
      runId: string;
      userId: string;
      promptId: string;
      response: string;
      model: string;
      source: 'model' | 'offline';
      promptTokens: number;
      completionTokens: number;
    };

export function conversationAnswer(state: ConversationState, messageId: string): AnsweredTurn | null {
  return state.answered[messageId] ?? null;
}

function remember(context: HistoryMessage[], ...messages: HistoryMessage[]): HistoryMessage[] {
  return [...context, ...messages].slice(-CONTEXT_MESSAGES);
}

/** Moves allowed from each stage: proposing restarts or amends, review needs a draft, completing needs review (or an autonomous run). */
function checkMove(stage: CreationStage, move: StageMove, autonomous: boolean): void {
  const allowed =
    move.kind === 'stay' ||
    move.kind === 'propose' ||
    (move.kind === 'review' && stage === 'gathering') ||
    (move.kind === 'complete' && (stage === 'review' || autonomous));
  if (!allowed) throw new DomainError('conflict', `cannot ${move.kind} an agent in stage ${stage}`);
}

function decideTurn(command: Extract<ConversationCommand, { kind: 'takeTurn' }>, state: ConversationState, now: Date): ConversationEvent[] {
  const { received, move, response } = command;
  if (state.answered[received.message_id]) return [];
  if (state.creation.stage !== command.fromStage) throw new DomainError('conflict', 'the conversation moved on meanwhile, please retry');
  checkMove(state.creation.stage, move, received.autonomous);
  const at = now.toISOString();
  const events: ConversationEvent[] = [{ type: 'PromptReceived', data: { ...received, received_at: at } }];
  const messageId = received.message_id;
  switch (move.kind) {
    case 'stay':
      break;
    case 'propose':
      events.push({ type: 'AgentDraftProposed', data: { message_id: messageId, draft: move.draft, proposed_at: at } });
      break;
    case 'review':
      events.push({ type: 'AgentReviewRequested', data: { message_id: messageId, draft: move.draft, requested_at: at } });
      break;
    case 'complete':
      events.push({
        type: 'AgentCreationCompleted',
        data: { message_id: messageId, recipe_id: move.recipeId, version: move.version, completed_at: at },
      });
      break;
    default:
      return assertNever(move);
  }
  events.push({
    type: 'ResponseGiven',
    data: { ...response, message_id: messageId, user_id: received.user_id, prompt_id: received.prompt_id, responded_at: at },
  });
  if (response.cost_micro_usd > 0) {
    events.push({
      type: 'UsageCharged',
      data: {
        message_id: messageId,
        user_id: received.user_id,
        prompt_id: received.prompt_id,
        model: response.model,
        cost_micro_usd: response.cost_micro_usd,
        charged_at: at,
      },
    });
  }
  if (command.expertRun) {
    events.push({
      type: 'ExpertRunRequested',
      data: {
        run_id: command.expertRun.runId,
        message_id: messageId,
        user_id: received.user_id,
        prompt_id: received.prompt_id,
        prompt: received.prompt,
        model: command.expertRun.model,
        requested_at: at,
      },
    });
  }
  return events;
}

function decideExpertAnswer(
  command: Extract<ConversationCommand, { kind: 'answerExpertRun' }>,
  state: ConversationState,
  now: Date,
): ConversationEvent[] {
  if (!(command.runId in state.expertRuns)) throw new DomainError('not_found', `no expert run ${command.runId} in this conversation`);
  if (state.expertRuns[command.runId]) return [];
  return [
    {
      type: 'ResponseGiven',
      data: {
        message_id: command.runId,
        user_id: command.userId,
        prompt_id: command.promptId,
        response: command.response,
        flow_id: `${command.promptId}:speculative`,
        stage: 'expert',
        actions_completed: 0,
        recipe_saved: false,
        source: command.source,
        model: command.model,
        prompt_tokens: command.promptTokens,
        completion_tokens: command.completionTokens,
        cost_micro_usd: 0,
        responded_at: now.toISOString(),
      },
    },
  ];
}

export const conversationDecider: Decider<ConversationState, ConversationCommand, ConversationEvent> = {
  initialState: { creation: { stage: 'none' }, answered: {}, context: [], expertRuns: {}, messageCount: 0 },

  evolve(state, event) {
    switch (event.type) {
      case 'PromptReceived':
        return {
          ...state,
          context: remember(state.context, { role: 'user', content: event.data.prompt }),
          messageCount: state.messageCount + 1,
        };
      case 'PromptBlocked':
        return state;
      case 'AgentDraftProposed':
        return { ...state, creation: { stage: 'gathering', draft: event.data.draft } };
      case 'AgentReviewRequested':
        return { ...state, creation: { stage: 'review', draft: event.data.draft } };
      case 'AgentCreationCompleted':
        return { ...state, creation: { stage: 'completed' } };
      case 'ResponseGiven': {
        const d = event.data;
        const expertRuns = d.stage === 'expert' ? { ...state.expertRuns, [d.message_id]: true } : state.expertRuns;
        return {
          ...state,
          answered: {
            ...state.answered,
            [d.message_id]: { response: d.response, flow_id: d.flow_id, actions_completed: d.actions_completed, recipe_saved: d.recipe_saved, source: d.source },
          },
          context: remember(state.context, { role: 'assistant', content: d.response }),
          expertRuns,
          messageCount: state.messageCount + 1,
        };
      }
      case 'UsageCharged':
        return state;
      case 'HistoryAppended':
        return {
          ...state,
          context: remember(state.context, ...event.data.messages),
          messageCount: state.messageCount + event.data.messages.length,
        };
      case 'ExpertRunRequested':
        return { ...state, expertRuns: { ...state.expertRuns, [event.data.run_id]: false } };
      default:
        return assertNever(event);
    }
  },

  decide(command, state, now) {
    switch (command.kind) {
      case 'takeTurn':
        return decideTurn(command, state, now);
      case 'block':
        return [
          {
            type: 'PromptBlocked',
            data: {
              message_id: command.messageId,
              user_id: command.userId,
              prompt_id: command.promptId,
              category: command.category,
              blocked_at: now.toISOString(),
            },
          },
        ];
      case 'appendHistory':
        if (command.messages.length === 0) return [];
        return [{ type: 'HistoryAppended', data: { messages: command.messages, appended_at: now.toISOString() } }];
      case 'answerExpertRun':
        return decideExpertAnswer(command, state, now);
      default:
        return assertNever(command);
    }
  },
};
