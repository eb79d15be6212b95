/**
 * Section 6: the hive contest.
 *
 *   A. leaderboard read latency (p50/p99) at 100,000 users with spark, through
 *      ContestQueries on the contestLeaderboard read model, vs a naive full
 *      scan (bench/contest-reads.bench.ts)
 *   B. scoring events/s through ContestScoringSaga in the real app, vs
 *      appending the resulting SparkAwarded directly; plus the HTTP ingestion
 *      route vs GET /health (bench/contest-saga.bench.ts)
 *
 * Each part that fails prints "skipped: <reason>" (stack on stderr) and the
 * bench goes on; a skip does not change the exit code.
 */
import { type ContestReadsOptions, type ContestReadsResult, runContestReads } from './contest-reads.bench';
import { type ContestSagaOptions, type ContestSagaResult, runContestSaga } from './contest-saga.bench';
import { fixed, heading, log, now, secondsSince } from './util';

export interface ContestBenchOptions {
  reads: ContestReadsOptions;
  saga: ContestSagaOptions;
}

export interface ContestBenchResult {
  reads: ContestReadsResult | { skipped: string };
  saga: ContestSagaResult | { skipped: string };
  seconds: number;
}

export function isSkipped<T extends object>(result: T | { skipped: string }): result is { skipped: string } {
  return 'skipped' in result && typeof (result as { skipped: unknown }).skipped === 'string';
}

/** Runs one part of a section; a failure prints "<name> skipped: <first line>" (stack on stderr) instead of ending the bench. */
export async function part<T>(name: string, run: () => Promise<T>): Promise<T | { skipped: string }> {
  try {
    return await run();
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0].trim() || 'unknown error';
    log(`  ${name} skipped: ${first}`);
    if (error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
    return { skipped: first };
  }
}

export async function runContestBench(options: ContestBenchOptions): Promise<ContestBenchResult> {
  heading('6. Hive contest (leaderboard reads, scoring saga)');
  const start = now();
  const reads = await part('6A', () => runContestReads(options.reads));
  log();
  const saga = await part('6B', () => runContestSaga(options.saga));
  const seconds = secondsSince(start);
  log(`  section 6 took ${fixed(seconds, 1)} s`);
  return { reads, saga, seconds };
}
