/**
 * The contest window this node serves (CONTEST_CONFIG): what the environment
 * sets, and for a start it does not set, the window fixed at the node's
 * first start (the `contestWindow-<nodeId>` stream), so that a restart never
 * moves `starts_at` past the joins already recorded. A regional node that
 * replays central's log takes central's window from it.
 */
import type { Provider } from '@nestjs/common';
import { contestWindowDecider, contestWindowStreamId } from '../../aggregates/contest/contest-window';
import { leftIn } from '../../aggregates/shared/decider';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ConfigError } from '../../config/config-error';
import { CONTEST_CONFIG, type ContestWindow } from '../../config/contest.config';
import { EVENT_STORE, type EventStore } from '../../infrastructure/event-store/event-store.port';
import { CommandExecutor } from '../common/command-executor';

export async function fixedContestWindow(config: AppConfig, executor: CommandExecutor, store: EventStore): Promise<ContestWindow> {
  const { contest, nodeId } = config;
  if (contest.configured.start) return { startsAt: contest.startsAt, endsAt: contest.endsAt };
  if (config.federation.upstreamUrl !== null) return replicatedContestWindow(config, store);
  const outcome = await executor.execute(
    contestWindowDecider,
    contestWindowStreamId(nodeId),
    { kind: 'fix', nodeId, startsAt: contest.startsAt, endsAt: contest.endsAt },
    { actor: 'system:contest-window', correlationId: `contest-window-${nodeId}`, causationId: null },
  );
  const fixed = leftIn(outcome.state, 'fixed');
  const startsAt = new Date(fixed.startsAt);
  const endsAt = contest.configured.end ? contest.endsAt : new Date(fixed.endsAt);
  if (endsAt.getTime() <= startsAt.getTime()) {
    throw new ConfigError('SVC_CONTEST_END', `the contest must end after it starts (this node's contest started at ${fixed.startsAt})`);
  }
  return { startsAt, endsAt };
}

/**
 * A regional node writes no events of its own: it serves the window central
 * fixed (the first `ContestWindowFixed` of the replicated log). Before its
 * first replication it has none yet and serves the configured default,
 * unrecorded, until a restart finds central's.
 */
async function replicatedContestWindow(config: AppConfig, store: EventStore): Promise<ContestWindow> {
  const [fixed] = await store.readAll({ eventTypes: ['ContestWindowFixed'], maxCount: 1 });
  if (!fixed) return { startsAt: config.contest.startsAt, endsAt: config.contest.endsAt };
  const startsAt = new Date(String(fixed.data.starts_at));
  const endsAt = config.contest.configured.end ? config.contest.endsAt : new Date(String(fixed.data.ends_at));
  return { startsAt, endsAt };
}

export const contestWindowProvider: Provider = {
  provide: CONTEST_CONFIG,
  inject: [APP_CONFIG, CommandExecutor, EVENT_STORE],
  useFactory: fixedContestWindow,
};
