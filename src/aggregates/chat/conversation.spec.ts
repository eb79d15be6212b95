import type { ConversationEvent } from './chat.events';
import { conversationAnswer, conversationDecider, type ConversationCommand } from './conversation';

const NOW = new Date('2026-11-22T10:00:00.000Z');
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

function turn(messageId: string, overrides: Partial<Extract<ConversationCommand, { kind: 'takeTurn' }>> = {}): ConversationCommand {
  return {
    kind: 'takeTurn',
    received: {
      message_id: messageId,
      user_id: 'u',
      prompt_id: 'p',
      prompt: 'hi',
      redactions: [],
      mode: 'create',
      task_source: 'own',
      create_agent: false,
      autonomous: false,
      speculative: false,
      casual_conv: false,
      model: null,
      origin: 'http',
    },
    fromStage: 'none',
    move: { kind: 'propose', draft },
    response,
    expertRun: null,
    ...overrides,
  };
}

function given(...events: ConversationEvent[]) {
  const state = events.reduce(conversationDecider.evolve, conversationDecider.initialState);
  return { state, when: (command: ConversationCommand) => conversationDecider.decide(command, state, NOW) };
}

describe('conversation', () => {
  it('given a new conversation, when a turn proposes an agent, then prompt, proposal and response land together', () => {
    const events = given().when(turn('m1'));
    expect(events.map((e) => e.type)).toEqual(['PromptReceived', 'AgentDraftProposed', 'ResponseGiven']);
    const after = given(...events).state;
    expect(after.stage).toBe('gathering');
    expect(conversationAnswer(after, 'm1')?.response).toBe('hello');
  });

  it('given a priced response, when the turn is taken, then its cost is charged to the user; a free one charges nothing', () => {
    const priced = given().when(turn('m1', { response: { ...response, cost_micro_usd: 1500, model: 'big' } }));
    expect(priced[priced.length - 1]).toEqual({
      type: 'UsageCharged',
      data: { message_id: 'm1', user_id: 'u', prompt_id: 'p', model: 'big', cost_micro_usd: 1500, charged_at: NOW.toISOString() },
    });
    expect(given().when(turn('m1')).map((e) => e.type)).not.toContain('UsageCharged');
  });

  it('given a message already answered, when the same message id comes again, then nothing is recorded', () => {
    const first = given().when(turn('m1'));
    expect(given(...first).when(turn('m1'))).toEqual([]);
  });

  it('given a turn computed from a stage the conversation has left, then a conflict', () => {
    const first = given().when(turn('m1'));
    expect(() => given(...first).when(turn('m2', { fromStage: 'none' }))).toThrow('moved on');
  });

  it('given no draft under review, when a turn completes the agent, then refused', () => {
    expect(() => given().when(turn('m1', { move: { kind: 'complete', recipeId: 'r', version: 1 } }))).toThrow('cannot complete');
  });

  it('given an autonomous turn, when it completes the agent from nothing, then allowed', () => {
    const command = turn('m1', { move: { kind: 'complete', recipeId: 'r', version: 1 } }) as Extract<ConversationCommand, { kind: 'takeTurn' }>;
    command.received.autonomous = true;
    const events = given().when(command);
    expect(given(...events).state.stage).toBe('completed');
  });

  it('given gathering, when a turn asks for review, then the stage is review', () => {
    const first = given().when(turn('m1'));
    const events = given(...first).when(turn('m2', { fromStage: 'gathering', move: { kind: 'review', draft } }));
    expect(given(...first, ...events).state.stage).toBe('review');
  });

  it('given a speculative turn, when it asks for an expert run, then the run is requested and answered once', () => {
    const events = given().when(turn('m1', { move: { kind: 'stay' }, expertRun: { runId: 'x1', model: null } }));
    expect(events.map((e) => e.type)).toContain('ExpertRunRequested');
    const answer: ConversationCommand = {
      kind: 'answerExpertRun',
      runId: 'x1',
      userId: 'u',
      promptId: 'p',
      response: 'expert says',
      model: 'big',
      source: 'model',
      promptTokens: 1,
      completionTokens: 2,
    };
    const answered = given(...events).when(answer);
    expect(answered).toEqual([expect.objectContaining({ type: 'ResponseGiven', data: expect.objectContaining({ stage: 'expert', message_id: 'x1' }) })]);
    expect(given(...events, ...answered).when(answer)).toEqual([]);
  });

  it('given no such expert run, when an answer arrives, then 404', () => {
    expect(() =>
      given().when({ kind: 'answerExpertRun', runId: 'nope', userId: 'u', promptId: 'p', response: '', model: 'm', source: 'model', promptTokens: 0, completionTokens: 0 }),
    ).toThrow('no expert run');
  });

  it('given a block, then only the category is recorded', () => {
    const [event] = given().when({ kind: 'block', messageId: 'm', userId: 'u', promptId: 'p', category: 'weapons' });
    expect(event).toEqual({ type: 'PromptBlocked', data: { message_id: 'm', user_id: 'u', prompt_id: 'p', category: 'weapons', blocked_at: NOW.toISOString() } });
  });

  it('given history, when appended, then it joins the context', () => {
    const events = given().when({ kind: 'appendHistory', messages: [{ role: 'user', content: 'a' }] });
    expect(given(...events).state.context).toEqual([{ role: 'user', content: 'a' }]);
    expect(given().when({ kind: 'appendHistory', messages: [] })).toEqual([]);
  });
});
