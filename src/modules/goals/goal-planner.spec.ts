import { Logger } from '@nestjs/common';
import { offlineLanguageModel } from '../../../test/support/offline-llm';
import type { LanguageModel, LlmCompletion } from '../../infrastructure/llm/llm.port';
import { fitPlan, planGoal, PLANNER_INSTRUCTIONS } from './goal-planner';

function model(answer: string | Error, source: 'model' | 'offline' = 'model') {
  const requests: unknown[] = [];
  const llm = {
    kind: 'openai',
    defaultModel: 'm',
    complete: async (request: unknown): Promise<LlmCompletion> => {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return { content: answer, model: 'm', source, usage: { promptTokens: 1, completionTokens: 1 }, finishReason: 'stop' };
    },
    stream: jest.fn(),
  } as unknown as LanguageModel;
  return { llm, requests };
}

describe('goal planner', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));

  it('takes the client’s list as given', async () => {
    expect(await planGoal('g', model('1. x').llm, [' a ', 'b'])).toEqual({ subtasks: ['a', 'b'], plannedBy: 'client' });
  });

  it('splits offline when the port is the offline engine', async () => {
    const plan = await planGoal('book a flight, then book a hotel; then pack', offlineLanguageModel());
    expect(plan).toEqual({ subtasks: ['book a flight', 'book a hotel', 'pack'], plannedBy: 'offline' });
  });

  it('asks a model for a numbered list and takes its items', async () => {
    const { llm, requests } = model('Here is the plan:\n1. Find flights\n2. Book a hotel\n3. Pack');
    expect(await planGoal('trip to Rome', llm)).toEqual({ subtasks: ['Find flights', 'Book a hotel', 'Pack'], plannedBy: 'model' });
    expect(requests[0]).toMatchObject({ messages: [{ role: 'system', content: PLANNER_INSTRUCTIONS }, { role: 'user', content: 'trip to Rome' }] });
  });

  it('falls back to the offline splitter when the model answers without a list or fails', async () => {
    expect(await planGoal('a; b', model('I would rather not.').llm)).toEqual({ subtasks: ['a', 'b'], plannedBy: 'offline' });
    expect(await planGoal('a; b', model(new Error('down')).llm)).toEqual({ subtasks: ['a', 'b'], plannedBy: 'offline' });
  });

  it('keeps at most 20 sub-tasks, joining the rest into the last', () => {
    const plan = fitPlan(Array.from({ length: 23 }, (_, i) => `step ${i + 1}`));
    expect(plan).toHaveLength(20);
    expect(plan[19]).toBe('step 20; step 21; step 22; step 23');
  });
});
