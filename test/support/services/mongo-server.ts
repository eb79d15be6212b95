/**
 * A MongoDB wire-protocol server for the suites (DESIGN.md section 6):
 * de.bwaldvogel:mongo-java-server 1.47 with its in-memory backend, fetched
 * from Maven Central and run as a child JVM on a free loopback port.
 *
 * mongo-java-server is a library, so a tiny launcher class (below) is
 * compiled once into the cache; it binds 127.0.0.1 on a port the OS picks
 * (no race between choosing a port and binding it), prints a ready line and
 * serves until its stdin closes or it is killed. stdin is a pipe from this
 * process, so the JVM also goes away when the test process dies abruptly.
 */
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { MongoClient } from 'mongodb';
import { fetchArtifacts, MavenArtifact, SERVICES_CACHE } from './maven';

const NAME = 'mongo-java-server-1.47';

const ARTIFACTS: MavenArtifact[] = [
  // brings mongo-java-server-core, the memory backend and netty
  { groupId: 'de.bwaldvogel', artifactId: 'mongo-java-server', version: '1.47.0' },
  // slf4j backend, limited to warnings (set below), so errors reach the output tail
  { groupId: 'org.slf4j', artifactId: 'slf4j-simple', version: '2.0.17' },
];

const READY = /^MONGO-JAVA-SERVER READY ([\d.]+):(\d+)$/;

const LAUNCHER_SOURCE = `import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import java.net.InetSocketAddress;

/** Serves until stdin closes (the parent went away or asked it to stop). */
public class MongoMain {
  public static void main(String[] args) throws Exception {
    int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
    MongoServer server = new MongoServer(new MemoryBackend());
    server.bind(new InetSocketAddress("127.0.0.1", port));
    InetSocketAddress address = server.getLocalAddress();
    System.out.println("MONGO-JAVA-SERVER READY 127.0.0.1:" + address.getPort());
    System.out.flush();
    try {
      while (System.in.read() != -1) {
        // ignore input
      }
    } finally {
      server.shutdownNow();
    }
    System.exit(0);
  }
}
`;

const JVM_OPTIONS = [
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
  '-Dorg.slf4j.simpleLogger.logFile=System.out',
];

export interface MongoTestServer {
  /** mongodb:// URL of the server (direct connection) */
  url: string;
  stop(): Promise<void>;
}

export interface StartMongoServerOptions {
  /** how long to wait for the ready line and a ping (default 60 s) */
  timeoutMs?: number;
}

/** Compiles the launcher into a folder named after its source hash (once, atomically). */
async function compileLauncher(lib: string): Promise<string> {
  const hash = createHash('sha256').update(LAUNCHER_SOURCE).digest('hex').slice(0, 12);
  const dir = join(SERVICES_CACHE, NAME, `launcher-${hash}`);
  if (existsSync(join(dir, 'MongoMain.class'))) return dir;
  mkdirSync(join(SERVICES_CACHE, NAME), { recursive: true });
  const work = mkdtempSync(join(SERVICES_CACHE, NAME, 'launcher-tmp-'));
  try {
    writeFileSync(join(work, 'MongoMain.java'), LAUNCHER_SOURCE);
    await promisify(execFile)('javac', ['-nowarn', '-cp', join(lib, '*'), '-d', work, join(work, 'MongoMain.java')], {
      timeout: 120_000,
    });
    try {
      renameSync(work, dir);
    } catch (error) {
      // another run compiled it at the same time: theirs is as good as ours
      if (!existsSync(join(dir, 'MongoMain.class'))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return dir;
}

/** Keeps the last lines a process printed, for error messages. */
class OutputTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly max = 40,
  ) {}

  push(chunk: Buffer): void {
    const text = this.partial + chunk.toString('utf8');
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      if (this.lines.length > this.max) this.lines.shift();
      this.onLine(line);
    }
  }

  toString(): string {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    return all.length > 0 ? all.join('\n') : '(no output)';
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function pingUntil(url: string, deadline: number): Promise<void> {
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 2000, connectTimeoutMS: 2000 });
    try {
      await client.connect();
      await client.db('admin').command({ ping: 1 });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw new Error(`no ping answer: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}

export async function startMongoServer(options: StartMongoServerOptions = {}): Promise<MongoTestServer> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const lib = await fetchArtifacts(NAME, ARTIFACTS);
  const launcher = await compileLauncher(lib);
  const deadline = Date.now() + timeoutMs;

  const child = spawn('java', [...JVM_OPTIONS, '-cp', `${launcher}${delimiter}${join(lib, '*')}`, 'MongoMain', '0'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // a JVM must never outlive the test process, even when teardown never runs
  const killOnExit = (): void => {
    if (!exited(child)) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  let onReady: (address: string) => void = () => undefined;
  const ready = new Promise<string>((resolve) => (onReady = resolve));
  const tail = new OutputTail((line) => {
    const match = READY.exec(line.trim());
    if (match) onReady(`${match[1]}:${match[2]}`);
  });
  child.stdout!.on('data', (chunk: Buffer) => tail.push(chunk));
  child.stderr!.on('data', (chunk: Buffer) => tail.push(chunk));
  child.stdin!.on('error', () => undefined); // EPIPE when the JVM is gone
  const exit = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(`could not run java: ${error.message}`));
    child.once('exit', (code, signal) => resolve(`exited early (${signal ?? `code ${code}`})`));
  });

  const stop = async (): Promise<void> => {
    process.removeListener('exit', killOnExit);
    if (exited(child)) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin!.end();
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(timer);
  };

  const fail = async (reason: string): Promise<never> => {
    await stop();
    throw new Error(`mongo-java-server ${reason}; output:\n${tail.toString()}`);
  };

  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), Math.max(0, deadline - Date.now()))));
  const address = await Promise.race([ready, exit.then((reason) => ({ reason })), timeout]);
  clearTimeout(timer);
  if (address === null) return fail(`printed no ready line within ${timeoutMs / 1000} s`);
  if (typeof address !== 'string') return fail(address.reason);

  const url = `mongodb://${address}/?directConnection=true`;
  try {
    await pingUntil(url, deadline);
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }

  // the server must not keep the test process alive (stop() or exit ends it)
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr]) {
    (stream as unknown as { unref?: () => void } | null)?.unref?.();
  }
  return { url, stop };
}
