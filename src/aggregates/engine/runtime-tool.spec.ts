import { deciderKit } from '../../../test/support/decider-kit';
import { type RuntimeToolCommand, runtimeToolDecider } from './runtime-tool';

const now = new Date('2026-11-23T10:00:00.000Z');
const at = now.toISOString();
const { given, history } = deciderKit(runtimeToolDecider, now);

const setUp: RuntimeToolCommand = { kind: 'setUp', tool: 'tts', nodeId: 'n1', source: 'debian', programPath: '/usr/bin/espeak-ng', version: '1.51', installedNow: false };
const start = (pid: number, restart = false): RuntimeToolCommand => ({ kind: 'start', tool: 'tts', nodeId: 'n1', pid, port: 4000, argv: ['node', 'server.cjs'], restart });
const crash = (pid: number, willRestart = true): RuntimeToolCommand => ({ kind: 'crash', tool: 'tts', nodeId: 'n1', pid, exitCode: null, signal: 'SIGKILL', cause: 'exited', willRestart });
const stop: RuntimeToolCommand = { kind: 'stop', tool: 'tts', nodeId: 'n1', reason: 'operator' };
const unload: RuntimeToolCommand = { kind: 'unload', tool: 'tts', nodeId: 'n1', reason: 'operator', memoryMb: 40, vramMb: 0 };

describe('runtime tool', () => {
  it('given nothing, when set up, then ToolSetUp records where the program is', () =>
    given()
      .when(setUp)
      .then({ type: 'ToolSetUp', data: { tool: 'tts', node_id: 'n1', source: 'debian', program_path: '/usr/bin/espeak-ng', version: '1.51', installed_now: false, set_up_at: at } }));

  it('given a tool set up at the same path, when set up again, then nothing (idempotent)', () => given(...history(setUp)).when(setUp).thenNothing());

  it('given nothing, when started, then refused: set it up first', () =>
    given().when(start(10)).thenRefused('conflict', 'tool tts is not set up: POST /api/tools/tts/setup first'));

  it('given a tool set up, when started, then ToolStarted with its pid and argv', () =>
    given(...history(setUp))
      .when(start(10))
      .then({ type: 'ToolStarted', data: { tool: 'tts', node_id: 'n1', pid: 10, port: 4000, argv: ['node', 'server.cjs'], restart: false, restarts: 0, started_at: at } }));

  it('given a running tool, when started again, then refused as a conflict', () => given(...history(setUp, start(10))).when(start(11)).thenRefused('conflict', /already running \(pid 10\)/));

  it('given a running tool, when its process crashes, then ToolCrashed; a restart counts it', () => {
    const past = history(setUp, start(10), crash(10));
    expect(past[2]).toMatchObject({ type: 'ToolCrashed', data: { pid: 10, will_restart: true, restarts: 0 } });
    expect(given(...past).when(start(11, true)).events()[0]).toMatchObject({ type: 'ToolStarted', data: { pid: 11, restart: true, restarts: 1 } });
  });

  it('given a crash of an old process, when reported late, then nothing', () => given(...history(setUp, start(10))).when(crash(9)).thenNothing());

  it('given a crash that will not be restarted, when restarted, then refused', () =>
    given(...history(setUp, start(10), crash(10, false))).when(start(11, true)).thenRefused('conflict'));

  it('given a running tool, when stopped, then ToolStopped; stopping again records nothing', () => {
    given(...history(setUp, start(10))).when(stop).then({ type: 'ToolStopped', data: { tool: 'tts', node_id: 'n1', reason: 'operator', stopped_at: at } });
    given(...history(setUp, start(10), stop)).when(stop).thenNothing();
  });

  it('given a stopped tool, when unloaded, then ToolUnloaded frees its memory; once', () => {
    given(...history(setUp, start(10), stop))
      .when(unload)
      .then({ type: 'ToolUnloaded', data: { tool: 'tts', node_id: 'n1', reason: 'operator', freed_memory_mb: 40, freed_vram_mb: 0, unloaded_at: at } });
    given(...history(setUp, start(10), unload)).when(unload).thenNothing();
  });

  it('given an unloaded tool, when started, then it runs again from zero restarts', () =>
    expect(given(...history(setUp, start(10), crash(10), start(11, true), unload)).when(start(12)).state()).toMatchObject({ status: 'running', pid: 12, restarts: 0 }));
});
