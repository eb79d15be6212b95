import { EmbeddedReadStore } from '../../infrastructure/read-store/embedded/embedded-read-store';
import { applyAll, recorded } from '../../../test/support/projection-kit';
import { ENGINE_TOOLS, type EngineToolDoc, engineToolsProjection as projection } from './engine-tools.projection';

const streamId = 'tool-tts';
const setUp = recorded(
  'ToolSetUp',
  { tool: 'tts', node_id: 'n1', source: 'debian', program_path: '/usr/bin/espeak-ng', version: '1.51', installed_now: false, set_up_at: '2026-11-23T10:00:00.000Z' },
  { streamId },
);
const started = (pid: number, restarts = 0) =>
  recorded('ToolStarted', { tool: 'tts', node_id: 'n1', pid, port: 4000, argv: ['node', 's.cjs'], restart: restarts > 0, restarts, started_at: '2026-11-23T10:00:01.000Z' }, { streamId });
const doc = (store: EmbeddedReadStore) => store.collection<EngineToolDoc>(ENGINE_TOOLS).findOne({ _id: 'tts' });

describe('engineTools projection', () => {
  it('given a tool set up and started, then it is running with its process', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, setUp, started(10));
    expect(await doc(store)).toMatchObject({ tool: 'tts', status: 'running', pid: 10, port: 4000, program_path: '/usr/bin/espeak-ng', restarts: 0, last_crash: null });
  });

  it('given a crash and a restart, then it runs again and remembers the crash and the restart count', async () => {
    const store = new EmbeddedReadStore({ file: null });
    const first = started(10);
    const crashed = recorded(
      'ToolCrashed',
      { tool: 'tts', node_id: 'n1', pid: 10, exit_code: null, signal: 'SIGKILL', cause: 'exited', restarts: 0, will_restart: true, crashed_at: '2026-11-23T10:00:02.000Z' },
      { streamId },
    );
    await applyAll(projection, store, setUp, first, crashed);
    expect(await doc(store)).toMatchObject({ status: 'crashed', pid: null, last_crash: { pid: 10, signal: 'SIGKILL', will_restart: true } });
    await applyAll(projection, store, started(11, 1));
    expect(await doc(store)).toMatchObject({ status: 'running', pid: 11, restarts: 1, last_crash: { pid: 10 } });
  });

  it('given a running tool set up again, then it stays running', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, setUp, started(10), recorded('ToolSetUp', { ...setUp.data, version: '1.52' }, { streamId }));
    expect(await doc(store)).toMatchObject({ status: 'running', version: '1.52' });
  });

  it('given a stop and an unload, then the process is gone and why is kept', async () => {
    const store = new EmbeddedReadStore({ file: null });
    await applyAll(projection, store, setUp, started(10), recorded('ToolStopped', { tool: 'tts', node_id: 'n1', reason: 'operator', stopped_at: 't1' }, { streamId }));
    expect(await doc(store)).toMatchObject({ status: 'stopped', pid: null, stop_reason: 'operator', stopped_at: 't1' });
    await applyAll(projection, store, recorded('ToolUnloaded', { tool: 'tts', node_id: 'n1', reason: 'eviction', freed_memory_mb: 40, freed_vram_mb: 0, unloaded_at: 't2' }, { streamId }));
    expect(await doc(store)).toMatchObject({ status: 'unloaded', unload_reason: 'eviction' });
  });
});
