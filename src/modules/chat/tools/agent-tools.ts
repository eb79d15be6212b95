/**
 * The agent's built-in tools, one set per process: the chat pipeline plans
 * recipes and answers casual prompts with them, the action runner replays a
 * recipe's actions with them, and the offline engine of the LLM port is
 * handed them (as its `OfflineToolbox`) to work on a prompt without a model.
 * The date/time tool reads the injected clock.
 */
import { Injectable } from '@nestjs/common';
import { Clock } from '../../../infrastructure/clock';
import type { OfflineToolbox, StepAttempt, StepOutcome } from '../../../infrastructure/llm/llm.port';
import { createBuiltInTools, findTool, type Tool } from './built-in-tools';
import { decompose, type PlannedStep } from './steps';

@Injectable()
export class AgentTools implements OfflineToolbox {
  readonly tools: readonly Tool[];

  constructor(clock: Clock) {
    this.tools = createBuiltInTools(() => clock.now());
  }

  /** The tools' names, in matching order. */
  get names(): string[] {
    return this.tools.map((tool) => tool.name);
  }

  /** The first tool that can do the text, or null when it needs a language model. */
  find(text: string): Tool | null {
    return findTool(this.tools, text);
  }

  /** The prompt's steps, each with the tool that can do it and that tool's canonical input. */
  plan(prompt: string): PlannedStep[] {
    return decompose(prompt, this.tools);
  }

  /** Runs a step (or a saved action) with its stored tool on its stored input; needs-model when no tool takes it. */
  run(step: { tool: string | null; input: string }): StepOutcome {
    const tool = step.tool === null ? undefined : this.tools.find((t) => t.name === step.tool);
    if (tool === undefined || !tool.matches(step.input)) return { kind: 'needs-model' };
    try {
      return { kind: 'done', result: tool.run(step.input) };
    } catch (error) {
      return { kind: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The offline engine's view: each step of the prompt tried with its tool. */
  attempt(prompt: string): StepAttempt[] {
    return this.plan(prompt).map((step) => ({ step, outcome: this.run(step) }));
  }
}
