import { installArgv, programPath } from './engine-tools.runtime';
import { BUILT_IN_TOOLS, resolveCommand, TOOL_NAME, ToolCatalogue, type ToolManifest } from './tool-manifest';

const catalogue = new ToolCatalogue({ engine: { extraTools: [] } as never });
const manifestOf = (name: string) => catalogue.find(name);

describe('the tool manifest', () => {
  it('names every tool in the shape a path parameter must have, once', () => {
    for (const tool of BUILT_IN_TOOLS) expect(tool.name).toMatch(TOOL_NAME);
    expect(new Set(BUILT_IN_TOOLS.map((t) => t.name)).size).toBe(BUILT_IN_TOOLS.length);
  });

  it('fills the placeholders of a command into an argv, one element each', () => {
    expect(resolveCommand(manifestOf('tts')!, { node: '/usr/bin/node', toolsDir: '/data/engine/tools', program: '/usr/bin/espeak-ng', port: 4100 })).toEqual([
      '/usr/bin/node',
      '/data/engine/tools/tts-server.cjs',
      '--port',
      '4100',
      '--espeak',
      '/usr/bin/espeak-ng',
    ]);
  });

  it('installs a Debian package with apt-get and an npm package into the node’s folder, as argv arrays; a local path not at all', () => {
    expect(installArgv({ source: 'debian', package: 'espeak-ng' }, '/d/npm')).toEqual(['apt-get', 'install', '-y', '--no-install-recommends', 'espeak-ng']);
    expect(installArgv({ source: 'npm', package: 'some-tool' }, '/d/npm')).toEqual(['npm', 'install', '--no-audit', '--no-fund', '--prefix', '/d/npm', 'some-tool']);
    expect(installArgv({ source: 'local', path: '/opt/x' }, '/d/npm')).toBeNull();
  });

  it('given an offload to the CPU, then the tool’s cpu_args follow its argv', () => {
    const argv = resolveCommand(manifestOf('vision')!, { node: 'n', toolsDir: '/t', program: '/opt/llama-server', port: 1, placement: 'cpu' });
    expect(argv.slice(-2)).toEqual(['--n-gpu-layers', '0']);
  });

  it('refuses a malformed name with 400 and an unknown one with 404', () => {
    expect(() => catalogue.of('tts;id')).toThrow('tool_name must be');
    expect(() => catalogue.of('nope')).toThrow('no tool named nope in the manifest (known: tts, stt, vision, image)');
  });

  it('locates a program on PATH, in the npm folder or at its local path, and reports an absent one as null', () => {
    const tool = (install: ToolManifest['install'], program = 'node'): ToolManifest => ({ ...manifestOf('tts')!, program, install });
    expect(programPath(tool({ source: 'debian', package: 'nodejs' }), '/nowhere')).toMatch(/\/node$/);
    expect(programPath(tool({ source: 'debian', package: 'x' }, 'no-such-program-here'), '/nowhere')).toBeNull();
    expect(programPath(tool({ source: 'npm', package: 'x' }), '/nowhere')).toBeNull();
    expect(programPath(tool({ source: 'local', path: process.execPath }), '/nowhere')).toBe(process.execPath);
  });
});
