/**
 * The agent engine (issue 18): system pressure, runtime tools, the model
 * lifecycle, coding tools and skills.
 *
 * Pressure and throttling (docs/api.md, "System pressure"):
 * - ENGINE_PRESSURE_SOFT (default 0.75), ENGINE_PRESSURE_HARD (default 0.95):
 *   the throttle factor is 1 at or below SOFT and falls linearly to 0 at HARD
 *   (fractions 0..1, SOFT < HARD).
 * - ENGINE_THROTTLE_MAX_DELAY_MS (default 2000): the pause the hive worker and
 *   the goal dispatcher take before each unit of work at throttle 0
 *   (`(1 - throttle) × max`); 0 turns the pause off.
 * - ENGINE_CPU_SAMPLE_MS (default 1000): how often /proc/stat is sampled.
 * - ENGINE_NVIDIA_SMI (default `nvidia-smi`): the program that reads the GPUs.
 *
 * Runtime tools and the model lifecycle:
 * - ENGINE_ALLOW_INSTALL (default false): setup may run `apt-get install -y
 *   <package>` / `npm install` for a tool whose program is missing.
 * - ENGINE_TOOL_RESTART_LIMIT (default 5): restarts after crashes before a
 *   tool is left stopped; ENGINE_TOOL_BACKOFF_MS (default 500): the first
 *   back-off, doubled after each crash, at most 30 s. ENGINE_TOOL_HEALTH_MS
 *   (default 2000): how often a running tool's health check is polled.
 * - ENGINE_EVICTION_THRESHOLD (default 0.9): VRAM pressure above which the
 *   lowest-priority loaded model is unloaded; ENGINE_EVICTION_SWEEP_MS
 *   (default 5000): how often the pressure is measured for it.
 * - ENGINE_TOOLS_FILE: a JSON file of more tools for the manifest (an array of
 *   `{name, kind, description, program, install, command, health, estimate,
 *   model, cpu_args?}` as docs/api.md describes); checked at start.
 *
 * Coding tools:
 * - ENGINE_NPM_REGISTRY: the npm registry /coding/install and npm-sourced
 *   tools install from (npm's own default when unset).
 * - ENGINE_CODING_TIMEOUT_MS (default 10000, at most 120000): the time limit
 *   of a sandboxed run; a task may ask for less (`timeout_ms`).
 * - ENGINE_CODING_OUTPUT_CAP (default 65536 bytes): what is kept of stdout
 *   and stderr each.
 *
 * Skills:
 * - SKILLS_DIRS: comma-separated folders that /api/skills/discover/local scans.
 * - GITHUB_API_URL (default https://api.github.com), GITHUB_TOKEN (optional).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { httpUrl, withoutTrailingSlash } from './a2a.config';
import { ConfigError } from './config-error';
import { integer, raw } from './llm.config';

/** A tool an operator adds to the manifest (ENGINE_TOOLS_FILE); the built-in ones have the same shape plus their server files. */
export interface ToolSpec {
  name: string;
  kind: 'tts' | 'stt' | 'vision' | 'image';
  description: string;
  program: string;
  install: { source: 'debian'; package: string } | { source: 'npm'; package: string } | { source: 'local'; path: string };
  command: string[];
  health: { kind: 'http'; path: string };
  estimate: { memory_mb: number; vram_mb: number };
  model: string;
  /** arguments added to the command when its model is offloaded to the CPU (absent: the tool cannot run on the CPU) */
  cpu_args?: string[];
}

export interface EngineConfig {
  pressureSoft: number;
  pressureHard: number;
  throttleMaxDelayMs: number;
  cpuSampleMs: number;
  nvidiaSmi: string;
  allowInstall: boolean;
  toolRestartLimit: number;
  toolBackoffMs: number;
  toolHealthMs: number;
  evictionThreshold: number;
  evictionSweepMs: number;
  codingTimeoutMs: number;
  npmRegistry: string | null;
  codingOutputCap: number;
  skillsDirs: string[];
  githubApiUrl: string;
  githubToken: string | null;
  extraTools: ToolSpec[];
}

type Env = Record<string, string | undefined>;

function fraction(env: Env, name: string, fallback: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(value)) throw new ConfigError(name, `expected a fraction 0..1, got '${value}'`);
  return Number(value);
}

function flag(env: Env, name: string): boolean {
  const value = raw(env, name)?.toLowerCase();
  if (value === undefined) return false;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(name, `expected true or false, got '${value}'`);
}

function httpUrlOrNull(env: Env, name: string): string | null {
  const value = raw(env, name);
  return value === undefined ? null : withoutTrailingSlash(httpUrl(name, value));
}

const githubUrl = (env: Env): string => withoutTrailingSlash(httpUrl('GITHUB_API_URL', raw(env, 'GITHUB_API_URL') ?? 'https://api.github.com'));

const NAME = /^[a-z][a-z0-9-]{0,39}$/;
const MODEL = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const PACKAGE = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9.+_-]{0,213}$/;

function toolProblem(tool: Record<string, unknown>): string | null {
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((part) => typeof part === 'string');
  const install = tool.install as Record<string, unknown> | undefined;
  const health = tool.health as Record<string, unknown> | undefined;
  const estimate = tool.estimate as Record<string, unknown> | undefined;
  if (typeof tool.name !== 'string' || !NAME.test(tool.name)) return 'name must be 1-40 lower-case letters, digits or -';
  if (!['tts', 'stt', 'vision', 'image'].includes(tool.kind as string)) return 'kind must be tts, stt, vision or image';
  if (typeof tool.description !== 'string') return 'description must be a string';
  if (typeof tool.program !== 'string' || !/^[A-Za-z0-9._+-]{1,100}$/.test(tool.program)) return 'program must be a file name';
  if (!install || !['debian', 'npm', 'local'].includes(install.source as string)) return 'install.source must be debian, npm or local';
  if (install.source === 'local' ? typeof install.path !== 'string' || !install.path.startsWith('/') : typeof install.package !== 'string' || !PACKAGE.test(install.package)) {
    return install.source === 'local' ? 'install.path must be an absolute path' : 'install.package must be a package name';
  }
  if (!strings(tool.command) || tool.command.length === 0) return 'command must be a non-empty array of strings (an argv)';
  if (!health || health.kind !== 'http' || typeof health.path !== 'string' || !health.path.startsWith('/')) return "health must be {kind: 'http', path: '/...'}";
  if (!estimate || ![estimate.memory_mb, estimate.vram_mb].every((n) => typeof n === 'number' && n >= 0 && n < 1e7)) return 'estimate must be {memory_mb, vram_mb} in MB';
  if (typeof tool.model !== 'string' || !MODEL.test(tool.model)) return 'model must be a model name';
  if (tool.cpu_args !== undefined && !strings(tool.cpu_args)) return 'cpu_args must be an array of strings';
  return null;
}

function extraTools(env: Env): ToolSpec[] {
  const file = raw(env, 'ENGINE_TOOLS_FILE');
  if (file === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError('ENGINE_TOOLS_FILE', `cannot read a JSON array from ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError('ENGINE_TOOLS_FILE', `expected a JSON array of tools in ${file}`);
  parsed.forEach((tool, index) => {
    const problem = typeof tool === 'object' && tool !== null ? toolProblem(tool as Record<string, unknown>) : 'a tool must be an object';
    if (problem) throw new ConfigError('ENGINE_TOOLS_FILE', `tool ${index} of ${file}: ${problem}`);
  });
  return parsed as ToolSpec[];
}

export function loadEngineConfig(env: Env): EngineConfig {
  const pressureSoft = fraction(env, 'ENGINE_PRESSURE_SOFT', 0.75);
  const pressureHard = fraction(env, 'ENGINE_PRESSURE_HARD', 0.95);
  if (pressureSoft >= pressureHard) throw new ConfigError('ENGINE_PRESSURE_SOFT', `must be below ENGINE_PRESSURE_HARD (${pressureHard}), got ${pressureSoft}`);
  const nvidiaSmi = raw(env, 'ENGINE_NVIDIA_SMI') ?? 'nvidia-smi';
  if (!/^[A-Za-z0-9_./-]+$/.test(nvidiaSmi)) throw new ConfigError('ENGINE_NVIDIA_SMI', `expected a program name or path, got '${nvidiaSmi}'`);
  return {
    pressureSoft,
    pressureHard,
    throttleMaxDelayMs: integer(env, 'ENGINE_THROTTLE_MAX_DELAY_MS', 2000, 0, 60_000),
    cpuSampleMs: integer(env, 'ENGINE_CPU_SAMPLE_MS', 1000, 100, 60_000),
    nvidiaSmi,
    allowInstall: flag(env, 'ENGINE_ALLOW_INSTALL'),
    toolRestartLimit: integer(env, 'ENGINE_TOOL_RESTART_LIMIT', 5, 0, 100),
    toolBackoffMs: integer(env, 'ENGINE_TOOL_BACKOFF_MS', 500, 10, 60_000),
    toolHealthMs: integer(env, 'ENGINE_TOOL_HEALTH_MS', 2000, 50, 600_000),
    evictionThreshold: fraction(env, 'ENGINE_EVICTION_THRESHOLD', 0.9),
    evictionSweepMs: integer(env, 'ENGINE_EVICTION_SWEEP_MS', 5000, 100, 3_600_000),
    codingTimeoutMs: integer(env, 'ENGINE_CODING_TIMEOUT_MS', 10_000, 100, 120_000),
    npmRegistry: httpUrlOrNull(env, 'ENGINE_NPM_REGISTRY'),
    codingOutputCap: integer(env, 'ENGINE_CODING_OUTPUT_CAP', 65_536, 1024, 16 * 1024 * 1024),
    skillsDirs: (raw(env, 'SKILLS_DIRS') ?? '')
      .split(',')
      .map((dir) => dir.trim())
      .filter(Boolean)
      .map((dir) => resolve(dir)),
    githubApiUrl: githubUrl(env),
    githubToken: raw(env, 'GITHUB_TOKEN') ?? null,
    extraTools: extraTools(env),
  };
}
