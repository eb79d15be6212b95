import { OFFLINE_DISCLOSURE } from '../../../infrastructure/llm/llm.port';
import { offlineLanguageModel } from '../../../../test/support/offline-llm';
import { AgentTools } from './agent-tools';

const NOW = new Date('2026-03-04T05:06:07Z');
const tools = () => new AgentTools({ now: () => NOW });

describe('AgentTools', () => {
  it('replays a planned step from its stored tool and input', () => {
    const agent = tools();
    const [step] = agent.plan('Convert 5 km to miles');
    expect(step).toEqual({ index: 0, text: 'Convert 5 km to miles', tool: 'convert_units', input: '5 km to mi' });
    expect(agent.run(step)).toEqual({ kind: 'done', result: '5 km = 3.10686 mi' });
    expect(agent.run({ ...step, tool: null })).toEqual({ kind: 'needs-model' });
    expect(agent.run({ ...step, tool: 'no-such-tool' })).toEqual({ kind: 'needs-model' });
    expect(agent.run({ tool: 'arithmetic', input: '1/0' })).toEqual({ kind: 'failed', error: 'division by zero' });
  });

  it('finds the tool of a text and names the tools in matching order', () => {
    const agent = tools();
    expect(agent.find('reverse "abc"')?.name).toBe('reverse');
    expect(agent.find('write a haiku')).toBeNull();
    expect(agent.names).toEqual(['count', 'uppercase', 'lowercase', 'reverse', 'convert_units', 'datetime', 'arithmetic']);
  });
});

describe('the offline engine with the agent tools', () => {
  const ask = (prompt: string) => offlineLanguageModel(() => NOW).complete({ messages: [{ role: 'user', content: prompt }] });

  it('lists the steps with each tool result or the need for a model', async () => {
    const { content } = await ask('1. What is 2 × (3 + 4)?\n2. Convert 5 km to miles\n3. Write a sonnet\n4. what is 1/0');
    expect(content).toBe(
      [
        OFFLINE_DISCLOSURE,
        'Your request has 4 steps; built-in tools did 2 of them. Nothing below was written by a language model.',
        '',
        '1. What is 2 × (3 + 4)?',
        '   → arithmetic: 2 * (3 + 4) = 14',
        '2. Convert 5 km to miles',
        '   → convert_units: 5 km = 3.10686 mi',
        '3. Write a sonnet',
        '   → needs a language model (no built-in tool can do this step)',
        '4. what is 1/0',
        '   → arithmetic: could not be done (division by zero)',
      ].join('\n'),
    );
  });

  it('uses the injected clock for the date and time', async () => {
    const { content } = await ask('what time is it?');
    expect(content).toContain('datetime: 2026-03-04T05:06:07Z (Wednesday, 4 March 2026, 05:06 UTC)');
  });
});
