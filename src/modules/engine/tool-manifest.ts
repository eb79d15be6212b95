/**
 * The catalogue of runtime media tools this node knows (docs/api.md,
 * "Runtime tools"). A tool is a long-running local server the supervisor
 * starts with an argv (never a shell string), health-checks over HTTP on
 * loopback, and restarts after a crash. Its program comes from one of three
 * sources: a Debian package, an npm package (installed under DATA_DIR), or a
 * local path where an operator built it.
 *
 * Placeholders in `command`: `{node}` (this Node.js), `{tools_dir}`
 * (DATA_DIR/engine/tools), `{program}` (the located program), `{port}` (a
 * free loopback port chosen at start). Only the manifest's own strings and
 * these values ever reach an argv; nothing from a request does.
 */
import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../aggregates/shared/domain-error';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import type { ToolSpec } from '../../config/engine.config';
import { TTS_SERVER_SCRIPT } from './runtime/tts-server.script';

export type ToolKind = ToolSpec['kind'];
export type ToolInstall = ToolSpec['install'];

/**
 * A tool of the catalogue. `program`: the executable setup locates (on PATH
 * for debian, in DATA_DIR/engine/npm/node_modules/.bin for npm, `install.path`
 * for local); `command`: the server's argv with placeholders; `health`: GET
 * http://127.0.0.1:{port}{path} answers 2xx while it is healthy; `estimate`:
 * what a running instance holds; `model`: its name in /api/tools/lifecycle;
 * `cpu_args`: added to the argv when the model is offloaded to the CPU.
 */
export interface ToolManifest extends ToolSpec {
  /** files setup writes into the tools folder (the server scripts the command runs) */
  files: Readonly<Record<string, string>>;
}

/** What a tool name must look like before it is even looked up (a path parameter). */
export const TOOL_NAME = /^[a-z][a-z0-9-]{0,39}$/;

export const BUILT_IN_TOOLS: readonly ToolManifest[] = [
  {
    name: 'tts',
    kind: 'tts',
    description: 'Text to speech with eSpeak NG: POST /api/tools/tts/speak {text} answers a WAV',
    program: 'espeak-ng',
    install: { source: 'debian', package: 'espeak-ng' },
    command: ['{node}', '{tools_dir}/tts-server.cjs', '--port', '{port}', '--espeak', '{program}'],
    files: { 'tts-server.cjs': TTS_SERVER_SCRIPT },
    health: { kind: 'http', path: '/health' },
    estimate: { memory_mb: 40, vram_mb: 0 },
    model: 'espeak-ng',
  },
  {
    name: 'stt',
    kind: 'stt',
    description: 'Speech to text with whisper.cpp’s server (built by an operator under /opt/whisper.cpp)',
    program: 'whisper-server',
    install: { source: 'local', path: '/opt/whisper.cpp/build/bin/whisper-server' },
    command: ['{program}', '--host', '127.0.0.1', '--port', '{port}', '--model', '/opt/whisper.cpp/models/ggml-base.en.bin'],
    cpu_args: ['--no-gpu'],
    files: {},
    health: { kind: 'http', path: '/' },
    estimate: { memory_mb: 500, vram_mb: 0 },
    model: 'whisper-base.en',
  },
  {
    name: 'vision',
    kind: 'vision',
    description: 'Image understanding with llama.cpp’s server and a LLaVA model (built by an operator under /opt/llama.cpp)',
    program: 'llama-server',
    install: { source: 'local', path: '/opt/llama.cpp/build/bin/llama-server' },
    command: ['{program}', '--host', '127.0.0.1', '--port', '{port}', '--model', '/opt/llama.cpp/models/llava-v1.5-7b-Q4_K_M.gguf', '--mmproj', '/opt/llama.cpp/models/llava-v1.5-7b-mmproj-f16.gguf'],
    cpu_args: ['--n-gpu-layers', '0'],
    files: {},
    health: { kind: 'http', path: '/health' },
    estimate: { memory_mb: 1024, vram_mb: 4800 },
    model: 'llava-v1.5-7b',
  },
  {
    name: 'image',
    kind: 'image',
    description: 'Image generation with stable-diffusion.cpp’s server (built by an operator under /opt/stable-diffusion.cpp)',
    program: 'sd-server',
    install: { source: 'local', path: '/opt/stable-diffusion.cpp/build/bin/sd-server' },
    command: ['{program}', '--listen-ip', '127.0.0.1', '--listen-port', '{port}', '--model', '/opt/stable-diffusion.cpp/models/sd-v1-5-pruned-emaonly.safetensors'],
    files: {},
    health: { kind: 'http', path: '/' },
    estimate: { memory_mb: 1024, vram_mb: 4200 },
    model: 'stable-diffusion-1.5',
  },
];

/** The argv with its placeholders filled in; on the CPU, with the tool's `cpu_args`. */
export function resolveCommand(tool: ToolManifest, values: { node: string; toolsDir: string; program: string; port: number; placement?: 'gpu' | 'cpu' }): string[] {
  const fill: Record<string, string> = { '{node}': values.node, '{tools_dir}': values.toolsDir, '{program}': values.program, '{port}': String(values.port) };
  const argv = values.placement === 'cpu' ? [...tool.command, ...(tool.cpu_args ?? [])] : tool.command;
  return argv.map((part) => part.replace(/\{(node|tools_dir|program|port)\}/g, (placeholder) => fill[placeholder]));
}

/** The built-in tools and those of ENGINE_TOOLS_FILE: the one list every engine route reads. */
@Injectable()
export class ToolCatalogue {
  readonly tools: readonly ToolManifest[];

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'engine'>) {
    const extra = config.engine.extraTools.map((tool): ToolManifest => ({ ...tool, files: {} }));
    for (const tool of extra) {
      if (BUILT_IN_TOOLS.some((builtIn) => builtIn.name === tool.name)) throw new Error(`ENGINE_TOOLS_FILE: tool ${tool.name} is a built-in tool`);
    }
    this.tools = [...BUILT_IN_TOOLS, ...extra];
  }

  get names(): string[] {
    return this.tools.map((tool) => tool.name);
  }

  find(name: string): ToolManifest | undefined {
    return this.tools.find((tool) => tool.name === name);
  }

  /** The tool of a `{tool_name}` path parameter: 400 for a malformed name, 404 for one the catalogue does not list. */
  of(name: string): ToolManifest {
    if (!TOOL_NAME.test(name)) throw new DomainError('invalid', 'tool_name must be 1-40 lower-case letters, digits or -, starting with a letter');
    const tool = this.find(name);
    if (!tool) throw new DomainError('not_found', `no tool named ${name} in the manifest (known: ${this.names.join(', ')})`);
    return tool;
  }

  /** The tool that loads this model. */
  ofModel(model: string): ToolManifest | undefined {
    return this.tools.find((tool) => tool.model === model);
  }
}
