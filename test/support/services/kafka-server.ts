/**
 * Apache Kafka 3.9.1 for the suites (DESIGN.md section 6): a single-node
 * KRaft broker (broker and controller in one JVM) on free loopback ports,
 * from the Maven Central jars (`org.apache.kafka:kafka_2.13` plus a log4j 1.x
 * backend), formatted with `kafka.tools.StorageTool` and run with
 * `kafka.Kafka`, with the machine's Java 17.
 *
 * The broker logs (warnings and up, plus the start/stop lines) go to
 * `broker.log` in the server's temporary folder; its stdout/stderr go to
 * `broker.out` there. A failed start reports the tail of both.
 *
 * No JVM may outlive the test process: besides a process 'exit' hook, a tiny
 * watchdog shell holds a pipe from this process and SIGKILLs the JVM (and
 * removes its folder) when the pipe closes, which also covers the test
 * process being killed outright.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { fetchArtifacts, type MavenArtifact } from './maven';
import { freePort } from '../free-port';

const NAME = 'kafka-3.9.1';

const ARTIFACTS: MavenArtifact[] = [
  { groupId: 'org.apache.kafka', artifactId: 'kafka_2.13', version: '3.9.1' },
  // kafka 3.9 logs through slf4j 1.7 and configures log4j 1.x (reload4j), as its own distribution does
  { groupId: 'org.slf4j', artifactId: 'slf4j-reload4j', version: '1.7.36' },
  { groupId: 'ch.qos.reload4j', artifactId: 'reload4j', version: '1.2.25' },
];

export interface KafkaServer {
  /** `host:port` of the broker's PLAINTEXT listener */
  brokers: string;
  /** SIGTERM (controlled shutdown), SIGKILL after 15 s; removes the temporary folder */
  stop(): Promise<void>;
  /** SIGKILLs the broker JVM (a crash); `restart()` brings it back */
  kill(): Promise<void>;
  /** starts the broker again on the same ports and log dir; resolves once it answers */
  restart(): Promise<void>;
}

export interface StartKafkaServerOptions {
  /** how long to wait for the broker to answer, per start (default 90 s) */
  startTimeoutMs?: number;
  /** JVM heap limit in MiB (default 512) */
  heapMb?: number;
  /** keep the temporary folder after stop() (for post-mortems) */
  keepDataDir?: boolean;
  /** log4j level of the broker log (default WARN, or KAFKA_TEST_LOG_LEVEL) */
  logLevel?: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR';
}

const STOP_GRACE_MS = 15_000;


/** A Kafka cluster id: 16 random bytes, base64url without padding (what `StorageTool random-uuid` prints). */
export function randomClusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id; // Kafka avoids ids that read like a command-line flag
  }
}

/**
 * Single-node KRaft. The short broker session matters for restart(): after a
 * SIGKILL the controller refuses the new incarnation's registration
 * (DUPLICATE_BROKER_REGISTRATION) until the old session expired, which takes
 * 9 s or more with the default session timeout.
 */
function serverProperties(dir: string, port: number, controllerPort: number): string {
  return `process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:${controllerPort}
listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort}
advertised.listeners=PLAINTEXT://127.0.0.1:${port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=${join(dir, 'logs')}
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=10
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=true
broker.heartbeat.interval.ms=500
broker.session.timeout.ms=2000
delete.topic.enable=true
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
log.retention.hours=24
log.segment.bytes=16777216
`;
}

function log4jProperties(dir: string, level: string): string {
  return `log4j.rootLogger=${level}, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=${join(dir, 'broker.log')}
log4j.appender.file.MaxFileSize=10MB
log4j.appender.file.MaxBackupIndex=1
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
log4j.logger.kafka.Kafka$=INFO
log4j.logger.org.apache.kafka.common.utils.AppInfoParser=WARN
`;
}

function tail(file: string, lines = 40): string {
  if (!existsSync(file)) return '(none)';
  const all = readFileSync(file, 'utf8').trimEnd().split('\n');
  return all.slice(-lines).join('\n') || '(empty)';
}

function javaBinary(): string {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * A child that kills `pid` when its stdin (a pipe from this process) closes,
 * that is when this process died without stopping the broker, and then
 * removes the broker's folder (when `dir` is given).
 */
function spawnWatchdog(pid: number, dir: string | null): ChildProcess {
  const script = 'cat >/dev/null; kill -9 "$1" 2>/dev/null; if [ -n "$2" ]; then sleep 1; rm -rf "$2"; fi';
  const watchdog = spawn('sh', ['-c', script, 'kafka-watchdog', String(pid), dir ?? ''], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: false,
  });
  watchdog.stdin!.on('error', () => undefined);
  watchdog.on('error', () => undefined);
  watchdog.unref();
  (watchdog.stdin as unknown as { unref?: () => void }).unref?.();
  return watchdog;
}

/** Resolves once the broker lists topics (it then serves metadata, produce and fetch). */
async function waitUntilAnswers(
  brokers: string,
  deadline: number,
  alive: () => string | null,
): Promise<void> {
  const kafka = new Kafka({
    clientId: 'kafka-server-probe',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 5000,
    retry: { retries: 0 },
  });
  let lastError = 'no attempt made';
  while (Date.now() < deadline) {
    const death = alive();
    if (death) throw new Error(death);
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return;
    } catch (error) {
      lastError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer before the deadline (last error: ${lastError})`);
}

export async function startKafkaServer(options: StartKafkaServerOptions = {}): Promise<KafkaServer> {
  const startTimeoutMs = options.startTimeoutMs ?? 90_000;
  const lib = await fetchArtifacts(NAME, ARTIFACTS);
  const classpath = join(lib, '*');
  const dir = mkdtempSync(join(tmpdir(), 'kafka-test-'));
  const port = await freePort();
  let controllerPort = await freePort();
  while (controllerPort === port) controllerPort = await freePort();
  const brokers = `127.0.0.1:${port}`;

  const properties = join(dir, 'server.properties');
  const log4j = join(dir, 'log4j.properties');
  writeFileSync(properties, serverProperties(dir, port, controllerPort));
  writeFileSync(log4j, log4jProperties(dir, options.logLevel ?? process.env.KAFKA_TEST_LOG_LEVEL ?? 'WARN'));
  const jvmOptions = [
    `-Xmx${options.heapMb ?? 512}m`,
    '-Xms64m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-Djava.awt.headless=true',
    `-Dlog4j.configuration=file:${log4j}`,
    `-Dkafka.logs.dir=${dir}`,
  ];

  const removeDir = (): void => {
    if (!options.keepDataDir) rmSync(dir, { recursive: true, force: true });
  };

  try {
    await promisify(execFile)(
      javaBinary(),
      [...jvmOptions, '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', randomClusterId(), '-c', properties],
      { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    removeDir();
    const detail = error as { stdout?: string; stderr?: string; message?: string };
    throw new Error(`kafka storage format failed: ${detail.message ?? String(error)}\n${detail.stdout ?? ''}${detail.stderr ?? ''}`);
  }

  let child: ChildProcess | null = null;
  let watchdog: ChildProcess | null = null;
  let childExit: Promise<void> = Promise.resolve();
  let stopped = false;

  const killOnExit = (): void => {
    if (child && !exited(child)) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  const logTails = (): string =>
    `--- broker.log (tail) ---\n${tail(join(dir, 'broker.log'))}\n--- broker.out (tail) ---\n${tail(join(dir, 'broker.out'))}`;

  /** Sends `signal` and waits for the JVM to exit, escalating to SIGKILL after the grace period. */
  const terminate = async (signal: NodeJS.Signals): Promise<void> => {
    const current = child;
    if (!current) return;
    if (!exited(current)) {
      current.ref(); // keep this process alive until the JVM is gone
      current.kill(signal);
      const escalate = signal === 'SIGKILL' ? undefined : setTimeout(() => current.kill('SIGKILL'), STOP_GRACE_MS);
      await childExit;
      clearTimeout(escalate);
    }
    // the JVM is gone: retire its watchdog without letting it kill a recycled pid
    if (watchdog && !exited(watchdog)) watchdog.kill('SIGKILL');
    watchdog?.stdin?.destroy();
    watchdog = null;
    child = null;
  };

  const launch = async (): Promise<void> => {
    const out = openSync(join(dir, 'broker.out'), 'a');
    const started = spawn(javaBinary(), [...jvmOptions, '-cp', classpath, 'kafka.Kafka', properties], {
      cwd: dir,
      stdio: ['ignore', out, out],
      detached: false,
    });
    closeSync(out);
    child = started;
    let death: string | null = null;
    childExit = new Promise<void>((resolve) => {
      started.once('error', (error) => {
        death = `could not run java: ${error.message}`;
        resolve();
      });
      started.once('exit', (code, signal) => {
        death = `the broker exited (${signal ?? `code ${code}`})`;
        resolve();
      });
    });
    started.unref();
    if (started.pid !== undefined) watchdog = spawnWatchdog(started.pid, options.keepDataDir ? null : dir);
    try {
      await waitUntilAnswers(brokers, Date.now() + startTimeoutMs, () => death);
    } catch (error) {
      await terminate('SIGKILL');
      throw new Error(
        `kafka broker at ${brokers} did not start: ${error instanceof Error ? error.message : String(error)}\n${logTails()}`,
      );
    }
  };

  try {
    await launch();
  } catch (error) {
    process.removeListener('exit', killOnExit);
    removeDir();
    throw error;
  }

  return {
    brokers,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await terminate('SIGTERM');
      process.removeListener('exit', killOnExit);
      removeDir();
    },
    kill: async () => {
      if (stopped) throw new Error('the kafka server was stopped');
      await terminate('SIGKILL');
    },
    restart: async () => {
      if (stopped) throw new Error('the kafka server was stopped');
      await terminate('SIGTERM');
      await launch();
    },
  };
}
