/**
 * POST /visual_agent: a prompt about an image, through the LLM port's vision
 * input (the offline engine answers that vision needs a model, with the
 * image's type and size when it can read them).
 */
import { Inject, Injectable } from '@nestjs/common';
import { LLM, type LanguageModel } from '../../../infrastructure/llm/llm.port';
import type { ChatRequest } from '../chat-pipeline';
import { SYSTEM_PROMPT, type Turn, usageOf } from './turn';
import { TurnResponses } from './turn-responses';

@Injectable()
export class VisionFlow {
  constructor(
    @Inject(LLM) private readonly llm: LanguageModel,
    private readonly responses: TurnResponses,
  ) {}

  async turn(request: ChatRequest & { imageUrl: string }, prompt: string): Promise<Turn> {
    const answer = await this.llm.complete({
      messages: [{ role: 'system', content: SYSTEM_PROMPT }, { role: 'user', content: prompt }],
      model: request.modelConfig?.model,
      images: [{ url: request.imageUrl }],
      correlationId: request.correlationId,
    });
    const response = this.responses.respond(
      { response: answer.content, flow_id: `${request.promptId}:visual`, stage: 'visual', actions_completed: 0, recipe_saved: false },
      usageOf(answer),
      answer.model,
    );
    return { move: { kind: 'stay' }, response, expertRun: null };
  }
}
