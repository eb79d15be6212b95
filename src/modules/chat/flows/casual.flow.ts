/**
 * casual_conv: an answer without decomposition, from the model with the
 * conversation's context; speculative: the fast model's answer now plus an
 * expert run wanted in the background (speculative.saga.ts). On the offline
 * engine the answer is the agent's tool that takes the prompt, or a plain
 * statement that conversation needs a language model. A skill the prompt
 * names (tools/skills.ts) joins the model's system messages; offline, the
 * answer says which skill would take it.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { ConversationState } from '../../../aggregates/chat/conversation';
import { APP_CONFIG, type AppConfig } from '../../../config/config';
import { LLM, type LanguageModel, type LlmMessage, OFFLINE_DISCLOSURE } from '../../../infrastructure/llm/llm.port';
import type { ChatRequest } from '../chat-pipeline';
import { AgentTools } from '../tools/agent-tools';
import { SkillDirectory, skillMessage } from '../tools/skills';
import { newId, NO_USAGE, SYSTEM_PROMPT, type Turn, usageOf } from './turn';
import { TurnResponses } from './turn-responses';

@Injectable()
export class CasualFlow {
  constructor(
    @Inject(LLM) private readonly llm: LanguageModel,
    private readonly tools: AgentTools,
    private readonly responses: TurnResponses,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly skills: SkillDirectory,
  ) {}

  async turn(request: ChatRequest, prompt: string, state: ConversationState, speculative: boolean): Promise<Turn> {
    const flowId = `${request.promptId}:${speculative ? 'speculative' : 'casual'}`;
    const model = speculative ? (request.modelConfig?.fast_model ?? this.fastModel()) : request.modelConfig?.model;
    const expertRun = speculative ? { runId: newId('expert'), model: request.modelConfig?.expert_model ?? request.modelConfig?.model ?? null } : null;
    const stage = speculative ? 'speculative' : 'casual';
    const skill = await this.skills.choose(prompt);
    if (this.llm.kind === 'offline') {
      const tool = this.tools.find(prompt);
      const text = tool
        ? `${tool.run(tool.input(prompt))}`
        : skill
          ? `${OFFLINE_DISCLOSURE} The skill "${skill.name}" takes this prompt (${skill.description}); following its instructions needs a language model.`
          : `${OFFLINE_DISCLOSURE} Conversation needs a language model; this node can only run its built-in tools (${this.tools.names.join(', ')}).`;
      return { move: { kind: 'stay' }, response: this.responses.respond({ response: text, flow_id: flowId, stage, actions_completed: 0, recipe_saved: false }, NO_USAGE), expertRun };
    }
    const messages: LlmMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }, ...(skill ? [skillMessage(skill)] : []), ...state.context, { role: 'user', content: prompt }];
    const answer = await this.llm.complete({ messages, model, correlationId: request.correlationId });
    return {
      move: { kind: 'stay' },
      response: this.responses.respond({ response: answer.content, flow_id: flowId, stage, actions_completed: 0, recipe_saved: false }, usageOf(answer), answer.model),
      expertRun,
    };
  }

  private fastModel(): string | undefined {
    return this.config.llm.provider === 'openai' ? this.config.llm.fastModel : undefined;
  }
}
