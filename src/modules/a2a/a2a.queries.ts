/** Reads of the A2A context: registered agents (cards) and the caller's own tasks. */
import { Inject, Injectable } from '@nestjs/common';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { A2A_AGENTS, type A2aAgentDoc } from '../../projections/a2a/a2a-agents.projection';
import { A2A_TASKS, type A2aTaskDoc, a2aTaskDocId } from '../../projections/a2a/a2a-tasks.projection';

@Injectable()
export class A2aQueries {
  constructor(@Inject(READ_STORE) private readonly store: ReadStore) {}

  /** A registered agent, or null (unknown, or a recipe not saved yet). */
  async agent(agentId: string): Promise<A2aAgentDoc | null> {
    const doc = await this.store.collection<A2aAgentDoc>(A2A_AGENTS).findOne({ _id: agentId });
    return doc?.registered ? doc : null;
  }

  /** The agents a user owns, newest first. */
  async agentsOf(ownerId: string): Promise<A2aAgentDoc[]> {
    const docs = await this.store.collection<A2aAgentDoc>(A2A_AGENTS).find({ owner_id: ownerId, registered: true });
    return docs.sort((a, b) => (b.registered_at ?? '').localeCompare(a.registered_at ?? '')).slice(0, 500);
  }

  /** The caller's task on this agent, or null: another caller's task with the same id is never found. */
  async task(userId: string, agentId: string, taskId: string): Promise<A2aTaskDoc | null> {
    const doc = await this.store.collection<A2aTaskDoc>(A2A_TASKS).findOne({ _id: a2aTaskDocId(userId, taskId) });
    return doc && doc.agent_id === agentId ? doc : null;
  }
}
