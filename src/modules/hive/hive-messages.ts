/**
 * What travels between nodes for hive work: the task and result messages,
 * their topics and consumer groups. The one contract the origin (relay,
 * results listener) and the workers share; every message read from the bus is
 * checked here before anyone acts on it (a peer may run another version).
 *
 * Names: the default namespace is `svc.hive` (topics `svc.hive.tasks` and
 * `svc.hive.results`, groups `hive-workers` and `hive-results-<nodeId>`). It
 * follows KAFKA_TOPIC_PREFIX: `<p>.events` gives `<p>.hive`, any other prefix
 * `p` gives `p.hive`, and outside the default namespace the group names carry
 * it too (`hive-workers.<namespace>`), because a Kafka group whose members
 * subscribe to different topics would hand one namespace's partitions to
 * another's members. Nodes that work together use the same prefix.
 */

export type HiveTaskKind = 'subtask' | 'expert';

interface TaskBase {
  task_id: string;
  kind: HiveTaskKind;
  attempt: number;
  /** the node that wants the answer: only it acts on the result */
  origin_node: string;
  /** ISO time after which the origin no longer waits: a worker skips the task */
  deadline: string;
  correlation_id: string;
}

/** A sub-task of a goal: `task_id` is `<goal_id>:<subtask_id>:<attempt>`. */
export interface SubtaskTask extends TaskBase {
  kind: 'subtask';
  goal_id: string;
  subtask_id: string;
  description: string;
}

/** The expert run of a speculative chat: `task_id` is the run id. */
export interface ExpertTask extends TaskBase {
  kind: 'expert';
  run_id: string;
  user_id: string;
  prompt_id: string;
  prompt: string;
  /** the expert model; null: the worker's default model */
  model: string | null;
}

export type HiveTask = SubtaskTask | ExpertTask;

/** A worker's answer; it echoes the task's identifying fields so the origin needs no lookup. */
export interface HiveResult {
  task_id: string;
  kind: HiveTaskKind;
  attempt: number;
  origin_node: string;
  correlation_id: string;
  goal_id?: string;
  subtask_id?: string;
  run_id?: string;
  user_id?: string;
  prompt_id?: string;
  status: 'completed' | 'failed';
  /** the answer, or the error when failed */
  result: string;
  source: 'model' | 'offline';
  model: string;
  /** the node that ran the task */
  node_id: string;
}

export interface HiveNames {
  namespace: string;
  tasks: string;
  results: string;
  workersGroup: string;
  resultsGroup(nodeId: string): string;
}

export const DEFAULT_HIVE_NAMESPACE = 'svc.hive';

export function hiveNames(topicPrefix: string | null | undefined): HiveNames {
  const prefix = topicPrefix ?? 'svc.events';
  const namespace = `${prefix.endsWith('.events') ? prefix.slice(0, -'.events'.length) : prefix}.hive`;
  const qualify = (group: string) => (namespace === DEFAULT_HIVE_NAMESPACE ? group : `${group}.${namespace}`);
  return {
    namespace,
    tasks: `${namespace}.tasks`,
    results: `${namespace}.results`,
    workersGroup: qualify('hive-workers'),
    resultsGroup: (nodeId) => qualify(`hive-results-${nodeId}`),
  };
}

const ID = /^[A-Za-z0-9_.:@-]{1,200}$/;
const TEXT_LIMIT = 100_000;

const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= TEXT_LIMIT;
const isAttempt = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 1000;
const isTime = (v: unknown): v is string => typeof v === 'string' && !Number.isNaN(Date.parse(v));

/** The task in a bus message, or null when it is not one this version understands. */
export function parseHiveTask(value: unknown): HiveTask | null {
  const m = value as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return null;
  const base = isId(m.task_id) && isAttempt(m.attempt) && isId(m.origin_node) && isTime(m.deadline) && typeof m.correlation_id === 'string';
  if (!base) return null;
  if (m.kind === 'subtask') {
    return isId(m.goal_id) && isId(m.subtask_id) && isText(m.description) ? (m as unknown as SubtaskTask) : null;
  }
  if (m.kind === 'expert') {
    const model = m.model === null || (typeof m.model === 'string' && m.model.length <= 200);
    return isId(m.run_id) && isId(m.user_id) && isId(m.prompt_id) && isText(m.prompt) && model ? (m as unknown as ExpertTask) : null;
  }
  return null;
}

/** The result in a bus message, or null when it is malformed. */
export function parseHiveResult(value: unknown): HiveResult | null {
  const m = value as Record<string, unknown> | null;
  if (!m || typeof m !== 'object') return null;
  const ok =
    isId(m.task_id) &&
    (m.kind === 'subtask' || m.kind === 'expert') &&
    isAttempt(m.attempt) &&
    isId(m.origin_node) &&
    (m.status === 'completed' || m.status === 'failed') &&
    isText(m.result) &&
    (m.source === 'model' || m.source === 'offline') &&
    typeof m.model === 'string' &&
    isId(m.node_id);
  if (!ok) return null;
  if (m.kind === 'subtask' && !(isId(m.goal_id) && isId(m.subtask_id))) return null;
  if (m.kind === 'expert' && !(isId(m.run_id) && isId(m.user_id) && isId(m.prompt_id))) return null;
  return { ...(m as unknown as HiveResult), correlation_id: typeof m.correlation_id === 'string' ? m.correlation_id : String(m.task_id) };
}
