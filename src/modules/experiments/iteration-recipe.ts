/**
 * How an experiment is evaluated by agents (POST /experiments/{id}/evaluate):
 * a recipe by experiment type, whose steps become the sub-tasks of the goal
 * the goals pipeline runs over the hive (AcceptGoal with the client's split).
 */
import { MAX_DESCRIPTION_CHARS } from '../../aggregates/goals/goal';
import type { ExperimentRecord, ExperimentType } from '../../aggregates/experiments/experiment';

export interface IterationRecipe {
  strategy: 'code_evolution' | 'autoresearch' | 'observe_and_measure' | 'reason_and_refine';
  /** the goal's text */
  goal: string;
  /** the goal's sub-tasks, in order */
  steps: string[];
}

const STRATEGIES: Record<ExperimentType, IterationRecipe['strategy']> = {
  code_evolution: 'code_evolution',
  software: 'autoresearch',
  physical_ai: 'observe_and_measure',
  research: 'reason_and_refine',
  traditional: 'reason_and_refine',
};

const STEPS: Record<IterationRecipe['strategy'], string[]> = {
  code_evolution: ['Edit the target files to test the hypothesis', 'Run the tests and record whether the change holds', 'Summarise the findings as an evaluation of the experiment'],
  autoresearch: ['Change the code to test the hypothesis', 'Run it and extract the metric', 'Keep or revert the change by the metric and summarise the findings'],
  observe_and_measure: ['State a testable physical hypothesis', 'Observe and measure against it', 'Score the observations from -2 to +2 and summarise the findings'],
  reason_and_refine: ['Refine the hypothesis or choose a test angle', 'Research and reason about it', 'Score it from -2 to +2 on evidence, clarity, impact and feasibility, and summarise the findings'],
};

const cut = (text: string, max: number): string => ([...text].length > max ? [...text].slice(0, max - 1).join('') + '…' : text);

export function iterationRecipe(record: Pick<ExperimentRecord, 'title' | 'hypothesis' | 'expected_outcome' | 'intent_category' | 'experiment_type'>): IterationRecipe {
  const strategy = STRATEGIES[record.experiment_type];
  const context = `Hypothesis: ${record.hypothesis}\nExpected outcome: ${record.expected_outcome}\nIntent: ${record.intent_category}`;
  const goal = cut(`Evaluate: ${record.title}\n\n${context}`, MAX_DESCRIPTION_CHARS);
  const steps = STEPS[strategy].map((step) => cut(`${step}.\n\n${context}`, MAX_DESCRIPTION_CHARS));
  return { strategy, goal, steps };
}
