/**
 * An agent's profile and evolution (stream `agent-<agent user id>`): who owns
 * it, what it says it does, and the XP it earns from completed tasks and
 * collaborations. XP makes generations (GENERATION_XP each); from generation
 * SPECIALIZE_FROM_GENERATION the agent may take one specialisation, once.
 * Credits are idempotent per source (a task id, a collaboration id), so a
 * redelivered reaction never counts twice.
 */
import { DomainError, assertNever } from '../shared/domain-error';
import type { Decider } from '../shared/decider';

export const GENERATION_XP = 100;
export const SPECIALIZE_FROM_GENERATION = 3;
export const COMPLETED_TASK_XP = 50;
export const COLLABORATION_XP = 10;

export const PLATFORMS = ['generic', 'a2a', 'communitybook', 'openclaw', 'langchain'] as const;
export type Platform = (typeof PLATFORMS)[number];

export type SpecializationTree = 'analyst' | 'creator' | 'executor' | 'communicator';

/** The four trees (social-routes §3 `/agents/specialization-trees`): fixed content. */
export const SPECIALIZATION_TREES: Readonly<Record<SpecializationTree, { base: string; advanced: string; description: string }>> = {
  analyst: { base: 'data_analyst', advanced: 'research_scientist', description: 'Finds patterns in data and turns them into findings' },
  creator: { base: 'content_creator', advanced: 'creative_director', description: 'Writes, designs and builds new artefacts' },
  executor: { base: 'task_runner', advanced: 'automation_architect', description: 'Carries tasks through to completion, reliably and fast' },
  communicator: { base: 'community_guide', advanced: 'ambassador', description: 'Explains, moderates and connects people and agents' },
};
export const TREE_NAMES = Object.keys(SPECIALIZATION_TREES) as SpecializationTree[];

export const generationOf = (xp: number): number => 1 + Math.floor(xp / GENERATION_XP);

export interface AgentCreatedData {
  agent_user_id: string;
  username: string;
  /** the human owner; null for a self-registered bot or an imported agent */
  owner_id: string | null;
  local_name: string | null;
  display_name: string;
  description: string;
  personality: string;
  skills: string[];
  platform: Platform;
  /** the external agent id (a trained agent, an A2A agent, a bot's own id) */
  agent_id: string | null;
  created_at: string;
}

export type AgentEvent =
  | { type: 'AgentCreated'; data: AgentCreatedData }
  | {
      type: 'AgentXpGained';
      data: { agent_user_id: string; source: string; reason: 'task_completed' | 'collaboration'; xp: number; total_xp: number; generation: number; at: string };
    }
  | { type: 'AgentSpecialized'; data: { agent_user_id: string; tree: SpecializationTree; specialization: string; spec_tier: number; at: string } }
  | {
      type: 'AgentCollaborated';
      data: {
        collaboration_id: string;
        agent_user_id: string;
        other_agent_id: string;
        collaboration_type: string;
        quality_score: number;
        task_id: string | null;
        at: string;
      };
    };

export type AgentState =
  | { status: 'none' }
  | {
      status: 'active';
      agentUserId: string;
      ownerId: string | null;
      xp: number;
      generation: number;
      specialization: { tree: SpecializationTree; name: string; tier: number } | null;
      credited: ReadonlySet<string>;
    };

export type AgentCommand =
  | { kind: 'create'; profile: Omit<AgentCreatedData, 'created_at'> }
  | { kind: 'gainXp'; source: string; reason: 'task_completed' | 'collaboration'; xp: number }
  | { kind: 'specialize'; tree: string }
  | { kind: 'collaborate'; collaborationId: string; otherAgentId: string; collaborationType: string; qualityScore: number; taskId: string | null };

export const agentStreamId = (agentUserId: string): string => `agent-${agentUserId}`;

export const AGENT_NOT_FOUND = 'Agent not found';

const initialState: AgentState = { status: 'none' };

function evolve(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'AgentCreated':
      return {
        status: 'active',
        agentUserId: event.data.agent_user_id,
        ownerId: event.data.owner_id,
        xp: 0,
        generation: 1,
        specialization: null,
        credited: new Set(),
      };
    case 'AgentXpGained':
      if (state.status !== 'active') return state;
      return { ...state, xp: event.data.total_xp, generation: event.data.generation, credited: new Set([...state.credited, event.data.source]) };
    case 'AgentSpecialized':
      if (state.status !== 'active') return state;
      return { ...state, specialization: { tree: event.data.tree, name: event.data.specialization, tier: event.data.spec_tier } };
    case 'AgentCollaborated':
      return state;
    default:
      return assertNever(event);
  }
}

function active(state: AgentState): Extract<AgentState, { status: 'active' }> {
  if (state.status !== 'active') throw new DomainError('not_found', AGENT_NOT_FOUND);
  return state;
}

function gain(state: Extract<AgentState, { status: 'active' }>, source: string, reason: 'task_completed' | 'collaboration', xp: number, at: string): AgentEvent[] {
  if (state.credited.has(source)) return [];
  const total = state.xp + xp;
  return [{ type: 'AgentXpGained', data: { agent_user_id: state.agentUserId, source, reason, xp, total_xp: total, generation: generationOf(total), at } }];
}

function decide(command: AgentCommand, state: AgentState, now: Date): AgentEvent[] {
  const at = now.toISOString();
  switch (command.kind) {
    case 'create':
      if (state.status !== 'none') throw new DomainError('conflict', 'Agent already exists');
      return [{ type: 'AgentCreated', data: { ...command.profile, created_at: at } }];
    case 'gainXp':
      return gain(active(state), command.source, command.reason, command.xp, at);
    case 'specialize': {
      const agent = active(state);
      if (!(TREE_NAMES as string[]).includes(command.tree)) throw new DomainError('invalid', `path must be one of: ${TREE_NAMES.join(', ')}`);
      if (agent.specialization) throw new DomainError('conflict', 'Agent is already specialized');
      if (agent.generation < SPECIALIZE_FROM_GENERATION) {
        throw new DomainError('invalid', `Specialization needs generation ${SPECIALIZE_FROM_GENERATION} (the agent is at generation ${agent.generation})`);
      }
      const tree = command.tree as SpecializationTree;
      return [{ type: 'AgentSpecialized', data: { agent_user_id: agent.agentUserId, tree, specialization: SPECIALIZATION_TREES[tree].base, spec_tier: 1, at } }];
    }
    case 'collaborate': {
      const agent = active(state);
      if (command.otherAgentId === agent.agentUserId) throw new DomainError('invalid', 'An agent cannot collaborate with itself');
      return [
        {
          type: 'AgentCollaborated',
          data: {
            collaboration_id: command.collaborationId,
            agent_user_id: agent.agentUserId,
            other_agent_id: command.otherAgentId,
            collaboration_type: command.collaborationType,
            quality_score: command.qualityScore,
            task_id: command.taskId,
            at,
          },
        },
        ...gain(agent, `collaboration:${command.collaborationId}`, 'collaboration', COLLABORATION_XP, at),
      ];
    }
    default:
      return assertNever(command);
  }
}

export const agentDecider: Decider<AgentState, AgentCommand, AgentEvent> = { initialState, evolve, decide };
