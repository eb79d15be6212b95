/**
 * Runs the real service (src/main.ts) as a child process, for tests that
 * kill it or send it signals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { adapterEnv } from './adapters';
import { request } from './app';
import { eventually } from './eventually';
import { freePort } from './free-port';

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** `onSpawn` gets the child at once, before it is ready (a test that kills it mid-start). */
export async function startServiceProcess(dataDir: string, env: Record<string, string> = {}, onSpawn?: (child: ChildProcess) => void): Promise<ServiceProcess> {
  // a PORT of the caller's (a node restarted where its peers know it) or a free one
  const port = env.PORT ?? String(await freePort());
  const root = join(__dirname, '..', '..');
  const child = spawn(process.execPath, ['-r', 'ts-node/register', join(root, 'src', 'main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      TS_NODE_TRANSPILE_ONLY: 'true',
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_MEMORY_KIB: '1024',
      SOCIAL_RATE_LIMIT_DISABLED: '1',
      // as for the in-process test apps (app.ts testAppEnv): the bound of read-your-writes, not the behaviour, is loosened
      READ_YOUR_WRITES_TIMEOUT_MS: '15000',
      ...adapterEnv(dataDir),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn?.(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  try {
    await eventually(
      'the service to answer /ready (or exit)',
      async () => gone() || (await request(url, 'GET', '/ready')).status === 200,
      // ts-node compiles the whole service at start: half a minute on a busy 2-core machine
      { timeoutMs: 90_000 },
    );
  } catch (error) {
    // a service that never became ready must not outlive its test (it kept jest, and the machine, busy)
    child.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the service said: ${output.slice(-2000)}`);
  }
  if (gone()) throw new Error(`service exited: ${output}`);
  return { url, child, output: () => output, exited };
}
