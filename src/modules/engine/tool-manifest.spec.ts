import { installArgv, programPath } from './engine-tools.runtime';
import { manifestOf, resolveCommand, TOOL_MANIFEST, TOOL_NAME, type ToolManifest } from './tool-manifest';

describe('the tool manifest', () => {
  it('names every tool in the shape a path parameter must have, once', () => {
    for (const tool of TOOL_MANIFEST) expect(tool.name).toMatch(TOOL_NAME);
    expect(new Set(TOOL_MANIFEST.map((t) => t.name)).size).toBe(TOOL_MANIFEST.length);
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

  it('locates a program on PATH, in the npm folder or at its local path, and reports an absent one as null', () => {
    const tool = (install: ToolManifest['install'], program = 'node'): ToolManifest => ({ ...manifestOf('tts')!, program, install });
    expect(programPath(tool({ source: 'debian', package: 'nodejs' }), '/nowhere')).toMatch(/\/node$/);
    expect(programPath(tool({ source: 'debian', package: 'x' }, 'no-such-program-here'), '/nowhere')).toBeNull();
    expect(programPath(tool({ source: 'npm', package: 'x' }), '/nowhere')).toBeNull();
    expect(programPath(tool({ source: 'local', path: process.execPath }), '/nowhere')).toBe(process.execPath);
  });
});
