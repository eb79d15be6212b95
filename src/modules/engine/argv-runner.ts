/**
 * Runs a program with an argv array, never through a shell: the one way the
 * engine starts short-lived programs (version probes, package installs,
 * sandboxed code). A time limit kills it (SIGKILL, the whole process group),
 * and what it prints is capped.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export interface RunOptions {
  timeoutMs: number;
  /** bytes kept of stdout and of stderr each */
  outputCap?: number;
  cwd?: string;
  /** the child's whole environment (nothing is inherited unless passed) */
  env?: NodeJS.ProcessEnv;
  stdin?: string;
}

export interface RunResult {
  /** null when killed by a signal */
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** stdout or stderr was longer than the cap */
  truncated: boolean;
  durationMs: number;
  /** the program could not be started (ENOENT, EACCES): its message */
  spawnError: string | null;
}

/** The environment a child gets: a PATH, a home and a locale, and no secret of this process. */
export function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ...extra };
}

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `program` is on PATH (or itself, when absolute and executable); null when absent. */
export function findOnPath(program: string, pathVariable = process.env.PATH ?? ''): string | null {
  if (isAbsolute(program)) return isExecutable(program) ? program : null;
  if (program.includes('/')) return null;
  for (const dir of pathVariable.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

export function runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
  const cap = options.outputCap ?? 64 * 1024;
  const started = Date.now();
  return new Promise((resolve) => {
    const [program, ...args] = argv;
    const child = spawn(program, args, { cwd: options.cwd, env: options.env ?? plainEnv(), stdio: ['pipe', 'pipe', 'pipe'], detached: true, shell: false });
    const out = { stdout: '', stderr: '' };
    let truncated = false;
    let timedOut = false;
    let spawnError: string | null = null;
    const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = cap - Buffer.byteLength(out[stream]);
      if (room <= 0) {
        truncated = true;
        return;
      }
      const text = chunk.toString('utf8');
      if (chunk.length > room) {
        truncated = true;
        out[stream] += chunk.subarray(0, room).toString('utf8');
      } else out[stream] += text;
    };
    child.stdout.on('data', collect('stdout'));
    child.stderr.on('data', collect('stderr'));
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // whatever it left behind in its group
      resolve({ exitCode: code, signal, ...out, timedOut, truncated, durationMs: Date.now() - started, spawnError });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

/** The first line `program --version` prints, or null. */
export async function versionOf(program: string, args: readonly string[] = ['--version']): Promise<string | null> {
  const result = await runArgv([program, ...args], { timeoutMs: 5000, outputCap: 4096 });
  if (result.spawnError || result.timedOut) return null;
  const line = `${result.stdout}\n${result.stderr}`.split('\n').map((l) => l.trim()).find(Boolean);
  return line ? line.slice(0, 200) : null;
}
