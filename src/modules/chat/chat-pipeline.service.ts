/**
 * The agent pipeline (issue 7, SPEC §2.1), the coordinator of one turn: the
 * turns of a conversation queue in this process; a message already answered
 * answers again; the gate (gate/chat-gate.ts) lets the prompt through,
 * redacted; the mode computes the turn (casual, speculative, REUSE of the
 * saved recipe, CREATE in stages, or vision); and the turn is appended to the
 * conversation as one command, so its events land together.
 */
import { Injectable } from '@nestjs/common';
import { conversationStreamId, type PromptReceived, recipeStreamId } from '../../aggregates/chat/chat.events';
import { chooseMode } from '../../aggregates/chat/agent-creation';
import { conversationAnswer, conversationDecider, type ConversationState } from '../../aggregates/chat/conversation';
import { recipeDecider } from '../../aggregates/chat/recipe';
import { leftIn } from '../../aggregates/shared/decider';
import { CommandExecutor, type CommandContext } from '../common/command-executor';
import { ChatPipeline, type ChatReply, type ChatRequest, type VisualReply, type VisualRequest } from './chat-pipeline';
import { CasualFlow } from './flows/casual.flow';
import { CreateFlow } from './flows/create.flow';
import { ReuseFlow } from './flows/reuse.flow';
import type { ModeTurn } from './flows/turn';
import { VisionFlow } from './flows/vision.flow';
import { type AdmittedPrompt, ChatGate } from './gate/chat-gate';
import { KeyedMutex } from '../common/keyed-mutex';

@Injectable()
export class DefaultChatPipeline extends ChatPipeline {
  private readonly locks = new KeyedMutex();

  constructor(
    private readonly executor: CommandExecutor,
    private readonly gate: ChatGate,
    private readonly casual: CasualFlow,
    private readonly create: CreateFlow,
    private readonly reuse: ReuseFlow,
    private readonly vision: VisionFlow,
  ) {
    super();
  }

  async run(given: ChatRequest, context: CommandContext): Promise<ChatReply> {
    const request: ChatRequest = { ...given, correlationId: context.correlationId };
    const { response, prompt_id, flow_id, actions_completed, recipe_saved } = await this.takeTurn(request, context, request.origin, async (prompt, state) => {
      const recipe = (await this.executor.load(recipeDecider, recipeStreamId(request.userId, request.promptId))).state;
      const mode = chooseMode(
        { createAgent: request.createAgent, casualConv: request.casualConv, speculative: request.speculative },
        state.creation.stage,
        recipe.status === 'saved',
      );
      const turn =
        mode === 'casual'
          ? await this.casual.turn(request, prompt, state, false)
          : mode === 'speculative'
            ? await this.casual.turn(request, prompt, state, true)
            : mode === 'reuse'
              ? await this.reuse.turn(request, leftIn(recipe, 'saved'), context)
              : await this.create.turn(request, prompt, state, recipe, context);
      return { ...turn, mode: mode === 'speculative' ? 'casual' : mode };
    });
    return { response, prompt_id, flow_id, actions_completed, recipe_saved };
  }

  /** POST /visual_agent: a casual turn about an image, recorded in the conversation like any turn. */
  async visual(visual: VisualRequest, context: CommandContext): Promise<VisualReply> {
    const request = {
      ...visual,
      createAgent: false,
      taskSource: 'own' as const,
      modelConfig: null,
      autonomous: false,
      speculative: false,
      casualConv: true,
      origin: 'http' as const,
      correlationId: context.correlationId,
    };
    const reply = await this.takeTurn(request, context, 'visual', async (prompt) => ({ ...(await this.vision.turn(request, prompt)), mode: 'casual' }));
    return { response: reply.response, prompt_id: request.promptId, source: reply.source };
  }

  /**
   * One turn of a conversation, queued behind the conversation's other turns:
   * a message already answered answers again; then the gate; then `compute`
   * (tools, model calls) on the redacted prompt; then the turn is appended as
   * one command.
   */
  private takeTurn(
    request: ChatRequest,
    context: CommandContext,
    origin: PromptReceived['data']['origin'],
    compute: (prompt: string, state: ConversationState) => Promise<ModeTurn>,
  ): Promise<ChatReply & { source: 'model' | 'offline' }> {
    const stream = conversationStreamId(request.userId, request.promptId);
    return this.locks.run(stream, async () => {
      const { state } = await this.executor.load(conversationDecider, stream);
      const answered = conversationAnswer(state, request.messageId);
      if (answered) return { ...answered, prompt_id: request.promptId };

      const admitted = await this.gate.pass(request, state, context);
      const turn = await compute(admitted.prompt, state);
      await this.executor.execute(
        conversationDecider,
        stream,
        {
          kind: 'takeTurn',
          received: received(request, admitted, turn.mode, origin),
          fromStage: state.creation.stage,
          move: turn.move,
          response: turn.response,
          expertRun: turn.expertRun,
        },
        context,
        { maxRetries: 0 },
      );
      const { response, flow_id, actions_completed, recipe_saved, source } = turn.response;
      return { response, prompt_id: request.promptId, flow_id, actions_completed, recipe_saved, source };
    });
  }
}

function received(
  request: ChatRequest,
  { prompt, redactions }: AdmittedPrompt,
  mode: PromptReceived['data']['mode'],
  origin: PromptReceived['data']['origin'],
): Omit<PromptReceived['data'], 'received_at'> {
  return {
    message_id: request.messageId,
    user_id: request.userId,
    prompt_id: request.promptId,
    prompt,
    redactions,
    mode,
    task_source: request.taskSource,
    create_agent: request.createAgent,
    autonomous: request.autonomous,
    speculative: request.speculative,
    casual_conv: request.casualConv,
    model: request.modelConfig?.model ?? null,
    origin,
  };
}
