/**
 * `skill_badges`: one badge per skill an agent declared at creation (the
 * Skill badge record of social-routes §0.5, plus `user_id` and
 * `success_count`). A finished task assigned to the agent uses each of its
 * skills once; a completed one counts as a success (aggregates/agents/karma.ts).
 */
import type { ProjectionWriter } from '../../infrastructure/projections/projection';
import type { Doc } from '../../infrastructure/read-store/read-store.port';
import { badgeStats, type BadgeStats } from '../../aggregates/agents/karma';
import { applyOnce } from '../support/apply-once';
import { defineProjection, type RecordedOf } from '../support/define-projection';

export const SKILL_BADGES = 'skill_badges';

export interface SkillBadgeDoc extends Doc, BadgeStats {
  id: string;
  user_id: string;
  skill_name: string;
  awarded_at: string;
}

export const badgeId = (userId: string, skill: string): string => `${userId}:${skill}`;

async function finished(event: RecordedOf<'TaskCompleted' | 'TaskFailed'>, writer: ProjectionWriter): Promise<void> {
  const { assignee_id: assignee, assignee_type: type } = event.data;
  if (!assignee || type !== 'agent') return;
  const badges = await writer.reads.collection<SkillBadgeDoc>(SKILL_BADGES).find({ user_id: assignee });
  const success = event.type === 'TaskCompleted' ? 1 : 0;
  for (const badge of badges) {
    applyOnce(writer, SKILL_BADGES, badge.id, event, { $set: { ...badgeStats(badge.usage_count + 1, badge.success_count + success) } }, { upsert: false });
  }
}

export const skillBadgesProjection = defineProjection({
  name: 'skillBadges',
  version: 1,
  collections: [SKILL_BADGES],
  indexes: [{ collection: SKILL_BADGES, spec: { keys: { user_id: 1 } } }],
  on: {
    AgentCreated: (event, writer) => {
      const d = event.data;
      for (const skill of new Set(d.skills)) {
        const id = badgeId(d.agent_user_id, skill);
        applyOnce(writer, SKILL_BADGES, id, event, { $set: { id, user_id: d.agent_user_id, skill_name: skill, awarded_at: d.created_at, ...badgeStats(0, 0) } });
      }
    },
    TaskCompleted: finished,
    TaskFailed: finished,
  },
});
