/**
 * `agent_profiles`: one document per agent account (its user id): what the
 * agent says it does (description, personality, skills, platform), who owns
 * it, and its evolution (XP, generation, specialisation) with the XP history
 * in order. `agent_collaborations`: one document per collaboration.
 */
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { applyOnce } from '../support/apply-once';
import { defineProjection } from '../support/define-projection';

export const AGENT_PROFILES = 'agent_profiles';
export const AGENT_COLLABORATIONS = 'agent_collaborations';

export interface XpEntry {
  source: string;
  reason: string;
  xp: number;
  total_xp: number;
  generation: number;
  at: string;
}

export interface AgentProfileDoc extends Doc {
  id: string;
  username: string;
  owner_id: string | null;
  local_name: string | null;
  description: string;
  personality: string;
  skills: string[];
  platform: string;
  agent_id: string | null;
  created_at: string;
  xp: number;
  generation: number;
  specialization: string | null;
  spec_tier: number;
  specialization_tree: string | null;
  specialized_at: string | null;
  collaboration_count: number;
  xp_history: XpEntry[];
}

export interface CollaborationDoc extends Doc {
  id: string;
  agent_id: string;
  other_agent_id: string;
  collaboration_type: string;
  quality_score: number;
  task_id: string | null;
  created_at: string;
}

export const agentProfilesProjection = defineProjection({
  name: 'agentProfiles',
  version: 1,
  collections: [AGENT_PROFILES, AGENT_COLLABORATIONS],
  indexes: [
    { collection: AGENT_PROFILES, spec: { keys: { owner_id: 1, created_at: 1 } } },
    { collection: AGENT_PROFILES, spec: { keys: { xp: -1 } } },
    { collection: AGENT_COLLABORATIONS, spec: { keys: { agent_id: 1, created_at: -1 } } },
  ],
  on: {
    AgentCreated: (event, writer) => {
      const d = event.data;
      applyOnce(writer, AGENT_PROFILES, d.agent_user_id, event, {
        $set: {
          id: d.agent_user_id,
          username: d.username,
          owner_id: d.owner_id,
          local_name: d.local_name,
          description: d.description,
          personality: d.personality,
          skills: d.skills,
          platform: d.platform,
          agent_id: d.agent_id,
          created_at: d.created_at,
          xp: 0,
          generation: 1,
          specialization: null,
          spec_tier: 0,
          specialization_tree: null,
          specialized_at: null,
          collaboration_count: 0,
          xp_history: [],
        },
      });
    },
    AgentXpGained: (event, writer) => {
      const { agent_user_id, source, reason, xp, total_xp, generation, at } = event.data;
      applyOnce(
        writer,
        AGENT_PROFILES,
        agent_user_id,
        event,
        { $set: { xp: total_xp, generation }, $push: { xp_history: { source, reason, xp, total_xp, generation, at } } },
        { upsert: false },
      );
    },
    AgentSpecialized: (event, writer) => {
      const d = event.data;
      applyOnce(
        writer,
        AGENT_PROFILES,
        d.agent_user_id,
        event,
        { $set: { specialization: d.specialization, spec_tier: d.spec_tier, specialization_tree: d.tree, specialized_at: d.at } },
        { upsert: false },
      );
    },
    AgentCollaborated: (event, writer) => {
      const d = event.data;
      applyOnce(writer, AGENT_COLLABORATIONS, d.collaboration_id, event, {
        $set: {
          id: d.collaboration_id,
          agent_id: d.agent_user_id,
          other_agent_id: d.other_agent_id,
          collaboration_type: d.collaboration_type,
          quality_score: d.quality_score,
          task_id: d.task_id,
          created_at: d.at,
        },
      });
      applyOnce(writer, AGENT_PROFILES, d.agent_user_id, event, { $inc: { collaboration_count: 1 } }, { upsert: false });
    },
  },
});
