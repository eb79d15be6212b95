import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEngineConfig } from './engine.config';

const file = (content: unknown) => {
  const path = join(mkdtempSync(join(tmpdir(), 'engine-config-')), 'tools.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};
const tool = {
  name: 'extra',
  kind: 'image',
  description: 'x',
  program: 'sd-server',
  install: { source: 'local', path: '/opt/sd/sd-server' },
  command: ['{program}', '--port', '{port}'],
  health: { kind: 'http', path: '/' },
  estimate: { memory_mb: 1, vram_mb: 2 },
  model: 'sd-xl',
};

describe('engine config', () => {
  it('given nothing, then the documented defaults', () => {
    expect(loadEngineConfig({})).toMatchObject({ pressureSoft: 0.75, pressureHard: 0.95, throttleMaxDelayMs: 2000, allowInstall: false, evictionThreshold: 0.9, skillsDirs: [], githubApiUrl: 'https://api.github.com', githubToken: null, extraTools: [] });
  });

  it('given a soft threshold at or above the hard one, then it names the variable', () => {
    expect(() => loadEngineConfig({ ENGINE_PRESSURE_SOFT: '0.9', ENGINE_PRESSURE_HARD: '0.8' })).toThrow(/ENGINE_PRESSURE_SOFT/);
  });

  it('given a tools file, then its tools are checked and kept', () => {
    expect(loadEngineConfig({ ENGINE_TOOLS_FILE: file([tool]) }).extraTools).toEqual([tool]);
  });

  it('given a tool whose command is a shell string, or a file that is not JSON, then ENGINE_TOOLS_FILE is named with the problem', () => {
    expect(() => loadEngineConfig({ ENGINE_TOOLS_FILE: file([{ ...tool, command: 'sd-server --port 1 && rm -rf /' }]) })).toThrow(/ENGINE_TOOLS_FILE.*tool 0 .*command must be a non-empty array of strings/);
    expect(() => loadEngineConfig({ ENGINE_TOOLS_FILE: file('{oops') })).toThrow(/ENGINE_TOOLS_FILE.*cannot read a JSON array/);
  });
});
