/**
 * The sandbox of /coding/execute: a JavaScript program run by this Node.js in
 * a temporary folder of its own, which is removed afterwards; with Node's
 * permission model (`--permission`, `--experimental-permission` before Node
 * 22.13) it may read and write that folder only, start no process and load
 * no native addon; no environment but PATH, HOME (the folder) and LANG (no
 * secret of the node); a heap limit; a time limit that kills it (SIGKILL);
 * stdout and stderr capped.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { plainEnv, runArgv, type RunResult } from './argv-runner';

export interface SandboxLimits {
  timeoutMs: number;
  outputCap: number;
}

const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';

export async function runInSandbox(code: string, limits: SandboxLimits): Promise<RunResult> {
  const dir = await mkdtemp(join(tmpdir(), 'coding-sandbox-'));
  try {
    await writeFile(join(dir, 'main.js'), code, { mode: 0o600 });
    const argv = [process.execPath, '--no-warnings', PERMISSION_FLAG, `--allow-fs-read=${dir}`, `--allow-fs-write=${dir}`, '--max-old-space-size=256', join(dir, 'main.js')];
    return await runArgv(argv, { cwd: dir, env: plainEnv({ HOME: dir }), timeoutMs: limits.timeoutMs, outputCap: limits.outputCap });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The code of an answer: the first fenced block (```js, ```javascript or bare), or the whole answer. */
export function codeOf(answer: string): string {
  const fenced = /```(?:js|javascript|node|cjs|mjs)?[ \t]*\n([\s\S]*?)```/i.exec(answer);
  return (fenced ? fenced[1] : answer).trim();
}
