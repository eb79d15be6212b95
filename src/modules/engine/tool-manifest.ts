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
import { TTS_SERVER_SCRIPT } from './runtime/tts-server.script';

export type ToolKind = 'tts' | 'stt' | 'vision' | 'image';

export type ToolInstall = { source: 'debian'; package: string } | { source: 'npm'; package: string } | { source: 'local'; path: string };

export interface ToolManifest {
  name: string;
  kind: ToolKind;
  description: string;
  /** the executable setup locates: on PATH (debian), in DATA_DIR/engine/npm/node_modules/.bin (npm), or `install.path` (local) */
  program: string;
  install: ToolInstall;
  /** the server's argv, with placeholders */
  command: readonly string[];
  /** files setup writes into the tools folder (the server scripts the command runs) */
  files: Readonly<Record<string, string>>;
  /** GET http://127.0.0.1:{port}{path} answers 2xx while the tool is healthy */
  health: { kind: 'http'; path: string };
  /** what a running instance holds, for the lifecycle and eviction (estimates) */
  estimate: { memory_mb: number; vram_mb: number };
  /** the model the tool loads (its name in /api/tools/lifecycle) */
  model: string;
}

/** What a tool name must look like before it is even looked up (a path parameter). */
export const TOOL_NAME = /^[a-z][a-z0-9-]{0,39}$/;

export const TOOL_MANIFEST: readonly ToolManifest[] = [
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

export function manifestOf(name: string): ToolManifest | undefined {
  return TOOL_MANIFEST.find((tool) => tool.name === name);
}

/** The argv with its placeholders filled in. */
export function resolveCommand(tool: ToolManifest, values: { node: string; toolsDir: string; program: string; port: number }): string[] {
  const fill: Record<string, string> = { '{node}': values.node, '{tools_dir}': values.toolsDir, '{program}': values.program, '{port}': String(values.port) };
  return tool.command.map((part) => part.replace(/\{(node|tools_dir|program|port)\}/g, (placeholder) => fill[placeholder]));
}
