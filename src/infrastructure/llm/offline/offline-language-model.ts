/**
 * The default engine of the LLM port: deterministic, needs no model. It splits
 * the last user message into steps (decompose.ts), runs the steps a built-in
 * tool can do, and says plainly, first thing, that no language model is
 * configured, so its output can never pass for a model's (source: 'offline').
 */
import {
  estimateTokens,
  type LanguageModel,
  LlmAbortedError,
  type LlmCompletion,
  type LlmDelta,
  type LlmImage,
  type LlmRequest,
} from '../llm.port';
import { decompose, type PlannedStep } from './decompose';
import { decodeDataUrl, describeImageBytes, formatImageInfo } from './image-info';
import { createBuiltInTools, type Tool } from './tools';

export const OFFLINE_DISCLOSURE = 'No language model is configured on this node (offline engine).';
export const OFFLINE_MODEL = 'offline';

/** A step's outcome: the tool's result, the tool's error, or the need for a model. */
export type StepOutcome =
  | { step: PlannedStep; kind: 'done'; result: string }
  | { step: PlannedStep; kind: 'failed'; error: string }
  | { step: PlannedStep; kind: 'needs-model' };

export class OfflineLanguageModel implements LanguageModel {
  readonly kind = 'offline' as const;
  readonly defaultModel = OFFLINE_MODEL;
  readonly tools: readonly Tool[];

  constructor(clock: () => Date) {
    this.tools = createBuiltInTools(clock);
  }

  async complete(request: LlmRequest): Promise<LlmCompletion> {
    if (request.signal?.aborted) throw new LlmAbortedError();
    const content = this.answer(request);
    return {
      content,
      model: OFFLINE_MODEL,
      source: 'offline',
      usage: {
        promptTokens: estimateTokens(request.messages.map((m) => m.content).join('\n')),
        completionTokens: estimateTokens(content),
      },
      finishReason: 'stop',
    };
  }

  /** The same content as complete(), a line at a time: callers that stream see no difference in text. */
  async *stream(request: LlmRequest): AsyncIterable<LlmDelta> {
    const { content } = await this.complete(request);
    for (const line of content.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      if (request.signal?.aborted) throw new LlmAbortedError();
      yield { content: line, done: false };
    }
    yield { content: '', done: true };
  }

  /** Runs one planned step with the built-in tools (the chat pipeline replays recipe actions through it). */
  runStep(step: PlannedStep): StepOutcome {
    const tool = step.tool === null ? undefined : this.tools.find((t) => t.name === step.tool);
    if (tool === undefined || !tool.matches(step.input)) return { step, kind: 'needs-model' };
    try {
      return { step, kind: 'done', result: tool.run(step.input) };
    } catch (error) {
      return { step, kind: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
  }

  private answer(request: LlmRequest): string {
    const images = request.images ?? [];
    if (images.length > 0) return visionAnswer(images);
    const prompt = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const steps = decompose(prompt, this.tools);
    if (steps.length === 0) return `${OFFLINE_DISCLOSURE}\nThe request has no user message to work on.`;
    return report(steps.map((step) => this.runStep(step)));
  }
}

function report(outcomes: StepOutcome[]): string {
  const done = outcomes.filter((o) => o.kind === 'done').length;
  const lines = [
    OFFLINE_DISCLOSURE,
    `Your request has ${plural(outcomes.length, 'step')}; built-in tools did ${done} of them. ` +
      'Nothing below was written by a language model.',
    '',
  ];
  for (const outcome of outcomes) {
    lines.push(`${outcome.step.index + 1}. ${outcome.step.text}`);
    lines.push(`   → ${describe(outcome)}`);
  }
  return lines.join('\n');
}

function describe(outcome: StepOutcome): string {
  switch (outcome.kind) {
    case 'done':
      return `${outcome.step.tool}: ${outcome.result}`;
    case 'failed':
      return `${outcome.step.tool}: could not be done (${outcome.error})`;
    case 'needs-model':
      return 'needs a language model (no built-in tool can do this step)';
    default:
      return unreachable(outcome);
  }
}

function visionAnswer(images: LlmImage[]): string {
  const lines = [
    OFFLINE_DISCLOSURE,
    `Vision needs a language model: ${images.length === 1 ? 'the image was' : `the ${images.length} images were`} not analysed.`,
  ];
  images.forEach((image, i) => lines.push(`Image ${i + 1}: ${imageLine(image.url)}`));
  return lines.join('\n');
}

function imageLine(url: string): string {
  const data = decodeDataUrl(url);
  if (data !== null) return formatImageInfo(describeImageBytes(data.bytes, data.declaredType));
  const shown = url.length > 200 ? `${url.slice(0, 200)}…` : url;
  return `${shown} (not fetched: the offline engine reads only data: URLs)`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function unreachable(value: never): never {
  throw new Error(`unexpected outcome ${JSON.stringify(value)}`);
}
