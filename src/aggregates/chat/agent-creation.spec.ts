import { agentName, amendDraft, chooseMode, draftFromPrompt, isApproval, nextCreateStep, type PlannedAction } from './agent-creation';

const steps: PlannedAction[] = [
  { text: 'convert 10 km to miles', tool: 'convert_units', input: '10 km to mi' },
  { text: 'write a haiku', tool: null, input: 'write a haiku' },
];
const flags = { createAgent: false, casualConv: false, speculative: false };

describe('chooseMode', () => {
  it('given casual_conv, then casual whatever else is set', () => {
    expect(chooseMode({ ...flags, casualConv: true, speculative: true }, 'none', true)).toBe('casual');
  });
  it('given speculative, then speculative', () => {
    expect(chooseMode({ ...flags, speculative: true }, 'none', true)).toBe('speculative');
  });
  it('given a saved recipe and no create_agent, then reuse', () => {
    expect(chooseMode(flags, 'completed', true)).toBe('reuse');
  });
  it('given a saved recipe and create_agent, then create', () => {
    expect(chooseMode({ ...flags, createAgent: true }, 'completed', true)).toBe('create');
  });
  it('given a new version being gathered, then create goes on even though a recipe is saved', () => {
    expect(chooseMode(flags, 'gathering', true)).toBe('create');
    expect(chooseMode(flags, 'review', true)).toBe('create');
  });
  it('given no saved recipe, then create', () => {
    expect(chooseMode(flags, 'none', false)).toBe('create');
  });
});

describe('isApproval', () => {
  it.each(['yes', 'OK!', 'looks good', 'Looks good to me', 'approve', 'go ahead', 'lgtm 👍', 'sounds good, thanks'])('%p approves', (text) => {
    expect(isApproval(text)).toBe(true);
  });
  it.each(['yes but add a step', 'no', 'also convert 5 kg to lb', '', 'okay so what about this'])('%p does not approve', (text) => {
    expect(isApproval(text)).toBe(false);
  });
});

describe('drafts', () => {
  it('given a prompt, then the draft takes its first sentence as goal and a kebab-case name', () => {
    const draft = draftFromPrompt('Convert 10 km to miles. Then write a haiku.', steps);
    expect(draft.goal).toBe('Convert 10 km to miles.');
    expect(draft.name).toBe('convert-10-km-to-miles');
    expect(draft.actions.map((a) => a.index)).toEqual([0, 1]);
  });
  it('given a long goal, then the name is cut on a word', () => {
    expect(agentName('a'.repeat(10) + ' ' + 'b'.repeat(60)).length).toBeLessThanOrEqual(48);
    expect(agentName('!!!')).toBe('agent');
  });
  it('given an amendment, then its steps are appended with continuing indexes', () => {
    const draft = amendDraft(draftFromPrompt('x', steps), [steps[0]]);
    expect(draft.actions.map((a) => a.index)).toEqual([0, 1, 2]);
  });
});

describe('nextCreateStep', () => {
  const draft = draftFromPrompt('convert 10 km to miles', steps);
  it('given no CREATE in progress, then propose a draft from the prompt', () => {
    expect(nextCreateStep({ creation: { stage: 'none' }, prompt: 'convert 10 km to miles', steps, autonomous: false }).kind).toBe('propose');
  });
  it('given gathering and an approval, then review the same draft', () => {
    expect(nextCreateStep({ creation: { stage: 'gathering', draft }, prompt: 'looks good', steps: [], autonomous: false })).toEqual({ kind: 'review', draft });
  });
  it('given review and an approval, then run', () => {
    expect(nextCreateStep({ creation: { stage: 'review', draft }, prompt: 'approve', steps: [], autonomous: false })).toEqual({ kind: 'run', draft });
  });
  it('given review and a change, then back to gathering with the amended draft', () => {
    const step = nextCreateStep({ creation: { stage: 'review', draft }, prompt: 'also convert 5 kg to lb', steps: [steps[0]], autonomous: false });
    expect(step.kind).toBe('propose');
    expect(step.draft.actions).toHaveLength(3);
  });
  it('given autonomous, then run at once', () => {
    expect(nextCreateStep({ creation: { stage: 'none' }, prompt: 'convert 10 km to miles', steps, autonomous: true }).kind).toBe('run');
  });
});
