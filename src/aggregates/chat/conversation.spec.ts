import { deciderKit } from '../../../test/support/decider-kit';
import type { ConversationEvent } from './chat.events';
import { conversationAnswer, conversationDecider, type ConversationCommand } from './conversation';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const AT = NOW.toISOString();
const { given } = deciderKit(conversationDecider, NOW);

type TakeTurn = Extract<ConversationCommand, { kind: 'takeTurn' }>;
type AnswerExpertRun = Extract<ConversationCommand, { kind: 'answerExpertRun' }>;

const draft = { name: 'a', goal: 'g', actions: [{ index: 0, description: 'd', tool: null, input: 'd' }] };
const response = {
  response: 'hello',
  flow_id: 'p:v1',
  stage: 'gathering' as const,
  actions_completed: 0,
  recipe_saved: false,
  source: 'offline' as const,
  model: 'offline',
  prompt_tokens: 0,
  completion_tokens: 0,
  cost_micro_usd: 0,
};
const received = (messageId: string, autonomous = false): TakeTurn['received'] => ({
  message_id: messageId,
  user_id: 'u',
  prompt_id: 'p',
  prompt: 'hi',
  redactions: [],
  mode: 'create',
  task_source: 'own',
  create_agent: false,
  autonomous,
  speculative: false,
  casual_conv: false,
  model: null,
  origin: 'http',
});

function turn(messageId: string, overrides: Partial<TakeTurn> = {}): TakeTurn {
  return { kind: 'takeTurn', received: received(messageId), fromStage: 'none', move: { kind: 'propose', draft }, response, expertRun: null, ...overrides };
}

const promptReceived = (messageId: string, autonomous = false): ConversationEvent => ({
  type: 'PromptReceived',
  data: { ...received(messageId, autonomous), received_at: AT },
});
const proposed = (messageId: string): ConversationEvent => ({ type: 'AgentDraftProposed', data: { message_id: messageId, draft, proposed_at: AT } });
const reviewed = (messageId: string): ConversationEvent => ({ type: 'AgentReviewRequested', data: { message_id: messageId, draft, requested_at: AT } });
const completed = (messageId: string): ConversationEvent => ({
  type: 'AgentCreationCompleted',
  data: { message_id: messageId, recipe_id: 'r', version: 1, completed_at: AT },
});
const responded = (messageId: string, fields: Partial<typeof response> = {}): ConversationEvent => ({
  type: 'ResponseGiven',
  data: { ...response, ...fields, message_id: messageId, user_id: 'u', prompt_id: 'p', responded_at: AT },
});
const expertRequested: ConversationEvent = {
  type: 'ExpertRunRequested',
  data: { run_id: 'x1', message_id: 'm1', user_id: 'u', prompt_id: 'p', prompt: 'hi', model: null, requested_at: AT },
};
const answer = (runId: string): AnswerExpertRun => ({
  kind: 'answerExpertRun',
  runId,
  userId: 'u',
  promptId: 'p',
  response: 'expert says',
  model: 'big',
  source: 'model',
  promptTokens: 1,
  completionTokens: 2,
});
const expertAnswered: ConversationEvent = {
  type: 'ResponseGiven',
  data: {
    message_id: 'x1',
    user_id: 'u',
    prompt_id: 'p',
    response: 'expert says',
    flow_id: 'p:speculative',
    stage: 'expert',
    actions_completed: 0,
    recipe_saved: false,
    source: 'model',
    model: 'big',
    prompt_tokens: 1,
    completion_tokens: 2,
    cost_micro_usd: 0,
    responded_at: AT,
  },
};

describe('conversation', () => {
  describe('takeTurn', () => {
    it('given a new conversation, when a turn proposes an agent, then prompt, proposal and response land together', () =>
      given().when(turn('m1')).then(promptReceived('m1'), proposed('m1'), responded('m1')));

    it('given a proposed agent, then the draft is being gathered and the message is answered', () => {
      const state = given(promptReceived('m1'), proposed('m1'), responded('m1')).state();
      expect(state.creation).toEqual({ stage: 'gathering', draft });
      expect(conversationAnswer(state, 'm1')?.response).toBe('hello');
    });

    it('given a new conversation, when a priced turn is taken, then its cost is charged to the user', () =>
      given()
        .when(turn('m1', { response: { ...response, cost_micro_usd: 1500, model: 'big' } }))
        .then(promptReceived('m1'), proposed('m1'), responded('m1', { cost_micro_usd: 1500, model: 'big' }), {
          type: 'UsageCharged',
          data: { message_id: 'm1', user_id: 'u', prompt_id: 'p', model: 'big', cost_micro_usd: 1500, charged_at: AT },
        }));

    it('given a message already answered, when the same message id comes again, then nothing is recorded', () =>
      given(promptReceived('m1'), proposed('m1'), responded('m1')).when(turn('m1')).thenNothing());

    it('given a turn computed from a stage the conversation has left, when it is taken, then a conflict', () =>
      given(promptReceived('m1'), proposed('m1'), responded('m1'))
        .when(turn('m2', { fromStage: 'none' }))
        .thenRefused('conflict', 'the conversation moved on meanwhile, please retry'));

    it('given no draft under review, when a turn completes the agent, then it is refused', () =>
      given()
        .when(turn('m1', { move: { kind: 'complete', recipeId: 'r', version: 1 } }))
        .thenRefused('conflict', 'cannot complete an agent in stage none'));

    it('given a new conversation, when an autonomous turn completes the agent, then it is allowed and the stage is completed', () => {
      const autonomous = given().when({ ...turn('m1', { move: { kind: 'complete', recipeId: 'r', version: 1 } }), received: received('m1', true) });
      autonomous.then(promptReceived('m1', true), completed('m1'), responded('m1'));
      expect(autonomous.state().creation).toEqual({ stage: 'completed' });
    });

    it('given gathering, when a turn asks for review, then the draft is under review', () => {
      const review = given(promptReceived('m1'), proposed('m1'), responded('m1')).when(turn('m2', { fromStage: 'gathering', move: { kind: 'review', draft } }));
      review.then(promptReceived('m2'), reviewed('m2'), responded('m2'));
      expect(review.state().creation).toEqual({ stage: 'review', draft });
    });

    it('given a new conversation, when a speculative turn asks for an expert run, then the run is requested', () =>
      given()
        .when(turn('m1', { move: { kind: 'stay' }, expertRun: { runId: 'x1', model: null } }))
        .then(promptReceived('m1'), responded('m1'), expertRequested));
  });

  describe('answerExpertRun', () => {
    it('given a requested expert run, when its answer arrives, then it is recorded as a response of stage expert', () =>
      given(promptReceived('m1'), responded('m1'), expertRequested).when(answer('x1')).then(expertAnswered));

    it('given an answered expert run, when the answer arrives again, then nothing is recorded', () =>
      given(promptReceived('m1'), responded('m1'), expertRequested, expertAnswered).when(answer('x1')).thenNothing());

    it('given no such expert run, when an answer arrives, then 404', () =>
      given().when(answer('nope')).thenRefused('not_found', 'no expert run nope in this conversation'));
  });

  describe('block', () => {
    it('given a new conversation, when a prompt is blocked, then only the category is recorded', () =>
      given()
        .when({ kind: 'block', messageId: 'm', userId: 'u', promptId: 'p', category: 'weapons' })
        .then({ type: 'PromptBlocked', data: { message_id: 'm', user_id: 'u', prompt_id: 'p', category: 'weapons', blocked_at: AT } }));
  });

  describe('appendHistory', () => {
    it('given a new conversation, when history is appended, then it joins the context', () => {
      const appended = given().when({ kind: 'appendHistory', messages: [{ role: 'user', content: 'a' }] });
      appended.then({ type: 'HistoryAppended', data: { messages: [{ role: 'user', content: 'a' }], appended_at: AT } });
      expect(appended.state().context).toEqual([{ role: 'user', content: 'a' }]);
    });

    it('given a new conversation, when no history is appended, then nothing is recorded', () =>
      given().when({ kind: 'appendHistory', messages: [] }).thenNothing());
  });
});
