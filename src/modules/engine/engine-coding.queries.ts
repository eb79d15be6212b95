/**
 * Reads of the coding tools: the CLIs found on this node (probed with their
 * version flags, cached for a minute and refreshed after an install), the
 * executors, and the benchmarks aggregated from the recorded runs (the
 * `coding_runs` read model).
 */
import { join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { LLM, type LanguageModel } from '../../infrastructure/llm/llm.port';
import { READ_STORE, type ReadStore } from '../../infrastructure/read-store/read-store.port';
import { CODING_RUNS, type CodingRunDoc } from '../../projections/engine/coding-runs.projection';
import { findOnPath, isExecutable, versionOf } from './argv-runner';
import { CODING_CLIS, INSTALLABLE_CODING_TOOLS } from './coding-clis';

export interface CodingToolView {
  name: string;
  installed: boolean;
  path: string | null;
  version: string | null;
  capabilities: string[];
  /** /coding/install can install it (the allow-list), and the npm package it would */
  installable: boolean;
  package: string | null;
}

export interface CodingToolsView {
  tools: CodingToolView[];
  executors: { name: 'builtin'; available: boolean; reason: string | null; model: string | null; runs_with: string }[];
  detected_at: string;
}

export interface BenchmarkRow {
  tool: string;
  task_type: string | null;
  runs: number;
  passed: number;
  failed: number;
  timed_out: number;
  success_rate: number;
  median_ms: number;
  last_run_at: string;
}

/** the runs the benchmarks aggregate: the latest ones */
export const BENCHMARK_WINDOW = 5000;
const DETECTION_TTL_MS = 60_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

export function benchmarkRows(runs: readonly CodingRunDoc[], byType: boolean): BenchmarkRow[] {
  const groups = new Map<string, CodingRunDoc[]>();
  for (const run of runs) {
    const key = byType ? `${run.tool}\u0000${run.task_type}` : run.tool;
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  return [...groups.values()]
    .map((group) => {
      const passed = group.filter((r) => r.status === 'passed').length;
      return {
        tool: group[0].tool,
        task_type: byType ? group[0].task_type : null,
        runs: group.length,
        passed,
        failed: group.filter((r) => r.status === 'failed').length,
        timed_out: group.filter((r) => r.status === 'timed_out').length,
        success_rate: Math.round((passed / group.length) * 1000) / 1000,
        median_ms: median(group.map((r) => r.duration_ms)),
        last_run_at: group.map((r) => r.ran_at).sort().at(-1) ?? '',
      };
    })
    .sort((a, b) => a.tool.localeCompare(b.tool) || (a.task_type ?? '').localeCompare(b.task_type ?? ''));
}

@Injectable()
export class EngineCodingQueries {
  private detected: { at: number; tools: Promise<CodingToolView[]> } | null = null;

  constructor(
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LLM) private readonly llm: LanguageModel,
  ) {}

  /** Forget the detected CLIs (after an install). */
  forgetDetection(): void {
    this.detected = null;
  }

  async tools(): Promise<CodingToolsView> {
    if (this.detected === null || Date.now() - this.detected.at > DETECTION_TTL_MS) this.detected = { at: Date.now(), tools: this.detect() };
    const at = this.detected.at;
    const offline = this.llm.kind === 'offline';
    return {
      tools: await this.detected.tools,
      executors: [
        {
          name: 'builtin',
          available: !offline,
          reason: offline ? 'no language model is configured (LLM_PROVIDER=offline): tasks must carry their code' : null,
          model: offline ? null : this.llm.defaultModel,
          runs_with: `node ${process.version} (sandboxed)`,
        },
      ],
      detected_at: new Date(at).toISOString(),
    };
  }

  async benchmarks(): Promise<{ window: { runs: number; limit: number }; by_tool: BenchmarkRow[]; by_tool_and_task_type: BenchmarkRow[] }> {
    const runs = await this.store.collection<CodingRunDoc>(CODING_RUNS).find({}, { sort: { ran_at: -1 }, limit: BENCHMARK_WINDOW });
    return { window: { runs: runs.length, limit: BENCHMARK_WINDOW }, by_tool: benchmarkRows(runs, false), by_tool_and_task_type: benchmarkRows(runs, true) };
  }

  private detect(): Promise<CodingToolView[]> {
    const npmBin = join(this.config.dataDir, 'engine', 'npm', 'node_modules', '.bin');
    return Promise.all(
      CODING_CLIS.map(async (cli) => {
        const local = join(npmBin, cli.name);
        const path = findOnPath(cli.name) ?? (isExecutable(local) ? local : null);
        const pkg = INSTALLABLE_CODING_TOOLS[cli.name] ?? null;
        return {
          name: cli.name,
          installed: path !== null,
          path,
          version: path === null ? null : await versionOf(path, cli.versionArgs),
          capabilities: cli.capabilities,
          installable: pkg !== null,
          package: pkg,
        };
      }),
    );
  }
}
