/**
 * The contest window this node serves (CONTEST_CONFIG): what the environment
 * sets, and for a start it does not set, the window fixed at the node's
 * first start (the `contestWindow-<nodeId>` stream), so that a restart never
 * moves `starts_at` past the joins already recorded.
 */
import type { Provider } from '@nestjs/common';
import { contestWindowDecider, contestWindowStreamId } from '../../aggregates/contest/contest-window';
import { leftIn } from '../../aggregates/shared/decider';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { ConfigError } from '../../config/config-error';
import { CONTEST_CONFIG, type ContestWindow } from '../../config/contest.config';
import { CommandExecutor } from '../common/command-executor';

export async function fixedContestWindow(config: AppConfig, executor: CommandExecutor): Promise<ContestWindow> {
  const { contest, nodeId } = config;
  if (contest.configured.start) return { startsAt: contest.startsAt, endsAt: contest.endsAt };
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

export const contestWindowProvider: Provider = {
  provide: CONTEST_CONFIG,
  inject: [APP_CONFIG, CommandExecutor],
  useFactory: fixedContestWindow,
};
