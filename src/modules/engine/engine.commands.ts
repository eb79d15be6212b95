/**
 * Commands of the engine context, dispatched on the @nestjs/cqrs CommandBus.
 * The tool name is the manifest's (the controller checked it); the node is
 * this one.
 */
import type { SkillSource } from '../../aggregates/engine/skill';
import { DomainCommand } from '../common/domain-command';
import type { ModelView } from './engine-lifecycle.queries';
import type { ToolView } from './engine-tools.queries';

/** Locate (or install, where allowed) the tool's program and write its server files; records ToolSetUp. */
export class SetUpTool extends DomainCommand<{ tool: string }, ToolView> {}
/** Spawn the tool's server under the supervisor and wait until it is healthy; records ToolStarted. */
export class StartTool extends DomainCommand<{ tool: string }, ToolView> {}
/** End the tool's process; records ToolStopped (nothing when it was not running). */
export class StopTool extends DomainCommand<{ tool: string }, ToolView> {}
/** End the tool's process and release its model; records ToolUnloaded. `reason` eviction: the lifecycle's policy. */
export class UnloadTool extends DomainCommand<{ tool: string; reason: 'operator' | 'eviction' }, ToolView> {}

/** An admin's priority for a model; records ModelPriorityChanged (nothing when it is already that). */
export class SetModelPriority extends DomainCommand<{ model: string; priority: string }, ModelView> {}
/** Move a model from the GPU to the CPU (a running tool restarts with its `cpu_args`); records ModelOffloaded. */
export class OffloadModel extends DomainCommand<{ model: string }, ModelView & { restarted: boolean }> {}
/** The eviction policy's unload of a model under VRAM pressure: ModelEvicted, then the tool's ToolUnloaded. */
export class EvictModel extends DomainCommand<{ model: string; vramPressure: number; threshold: number }, ModelView> {}

export interface CodingRunView {
  run_id: string;
  tool: 'builtin';
  task_type: string;
  status: 'passed' | 'failed' | 'timed_out';
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  duration_ms: number;
  timeout_ms: number;
  model: string | null;
  code_source: 'model' | 'client';
  code: string;
}

/** Run a coding task in the sandbox (the LLM port writes the code unless the task carries it); records CodingTaskRan. */
export class ExecuteCodingTask extends DomainCommand<
  { userId: string; task: string; taskType: string; preferredTool: string | null; model: string | null; code: string | null; timeoutMs: number | null },
  CodingRunView
> {}

export interface CodingInstallView {
  tool: string;
  package: string;
  outcome: 'installed';
  version: string | null;
  path: string;
  duration_ms: number;
}

/** Install an allow-listed coding CLI with npm; records CodingToolInstalled, failed or not. */
export class InstallCodingTool extends DomainCommand<{ tool: string }, CodingInstallView> {}

export interface SkillView {
  name: string;
  description: string;
  version: number;
  source: SkillSource;
  sha256: string;
  ingested_at: string;
  ingested_by: string;
}

export interface SkillIngestView extends SkillView {
  /** false: the same SKILL.md was there already, nothing recorded */
  changed: boolean;
}

/** Parse, validate and record a SKILL.md, given as text or as a folder inside SKILLS_DIRS (SkillIngested; nothing for the same content). */
export class IngestSkill extends DomainCommand<{ skillMd: string } | { folder: string }, SkillIngestView> {}
/** Remove a skill (SkillRemoved). */
export class RemoveSkill extends DomainCommand<{ name: string }, { removed: true; name: string; version: number }> {}

export interface DiscoveredSkill {
  location: string;
  name: string | null;
  description: string | null;
  valid: boolean;
  problem: string | null;
  /** with `ingest`: whether this discovery recorded it (false: the same content was there), else null */
  ingested: boolean | null;
}

export interface DiscoveryView {
  source: Record<string, unknown>;
  found: number;
  valid: number;
  ingested: number;
  skills: DiscoveredSkill[];
}

/** Scan SKILLS_DIRS for SKILL.md files; with `ingest`, record the valid ones. */
export class DiscoverLocalSkills extends DomainCommand<{ ingest: boolean }, DiscoveryView> {}
/** List a GitHub repository's SKILL.md files through the REST API; with `ingest`, record the valid ones. */
export class DiscoverGithubSkills extends DomainCommand<{ repository: string; ref: string | null; path: string | null; ingest: boolean }, DiscoveryView> {}
