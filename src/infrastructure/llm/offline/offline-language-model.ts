/**
 * The default engine of the LLM port: deterministic, needs no model. It hands
 * the last user message to the agent's tools (an `OfflineToolbox`, given when
 * it is built), reports what they did with each step and which steps need a
 * language model, and says plainly, first thing, that no language model is
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
  OFFLINE_DISCLOSURE,
  type OfflineStep,
  type OfflineToolbox,
  type StepAttempt,
  type StepOutcome,
} from '../llm.port';
import { decodeDataUrl, describeImageBytes, formatImageInfo } from './image-info';

export const OFFLINE_MODEL = 'offline';

export class OfflineLanguageModel implements LanguageModel {
  readonly kind = 'offline' as const;
  readonly defaultModel = OFFLINE_MODEL;

  constructor(private readonly toolbox: OfflineToolbox) {}

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
    const { content, usage, finishReason } = await this.complete(request);
    for (const line of content.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
      if (request.signal?.aborted) throw new LlmAbortedError();
      yield { content: line, done: false };
    }
    yield { content: '', done: true, finishReason, usage };
  }

  private answer(request: LlmRequest): string {
    const images = request.images ?? [];
    if (images.length > 0) return visionAnswer(images);
    const prompt = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const attempts = this.toolbox.attempt(prompt);
    if (attempts.length === 0) return `${OFFLINE_DISCLOSURE}\nThe request has no user message to work on.`;
    return report(attempts);
  }
}

function report(attempts: StepAttempt[]): string {
  const done = attempts.filter((a) => a.outcome.kind === 'done').length;
  const lines = [
    OFFLINE_DISCLOSURE,
    `Your request has ${plural(attempts.length, 'step')}; built-in tools did ${done} of them. ` +
      'Nothing below was written by a language model.',
    '',
  ];
  for (const { step, outcome } of attempts) {
    lines.push(`${step.index + 1}. ${step.text}`);
    lines.push(`   → ${describe(step, outcome)}`);
  }
  return lines.join('\n');
}

function describe(step: OfflineStep, outcome: StepOutcome): string {
  switch (outcome.kind) {
    case 'done':
      return `${step.tool}: ${outcome.result}`;
    case 'failed':
      return `${step.tool}: could not be done (${outcome.error})`;
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
