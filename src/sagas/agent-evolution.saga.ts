/**
 * Agent evolution: a completed task assigned to an agent earns it XP
 * (COMPLETED_TASK_XP), credited once per task (the agent stream remembers
 * its sources), so a redelivered event never counts twice.
 */
import { Injectable } from '@nestjs/common';
import type { ICommand } from '@nestjs/cqrs';
import { COMPLETED_TASK_XP } from '../aggregates/agents/agent';
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProcessManager } from '../infrastructure/sagas/process-manager';
import { CreditAgentXp } from '../modules/agents/agents.commands';
import { reactions } from './support/reactions';

@Injectable()
export class AgentEvolutionSaga implements ProcessManager {
  readonly name = 'agent-evolution';
  private readonly reactions = reactions({
    TaskCompleted: (event) =>
      event.data.assignee_id && event.data.assignee_type === 'agent'
        ? new CreditAgentXp(
            { agentUserId: event.data.assignee_id, source: `task:${event.data.task_id}`, reason: 'task_completed', xp: COMPLETED_TASK_XP },
            { actor: 'system:agent-evolution', correlationId: event.metadata.correlationId, causationId: event.metadata.eventId },
          )
        : null,
  });
  readonly eventTypes = this.reactions.eventTypes;

  react(event: RecordedEvent): ICommand[] {
    return this.reactions.react(event);
  }
}
