/**
 * The coding CLIs this node looks for on PATH (and in DATA_DIR/engine/npm,
 * where /coding/install puts them), with what each is for, and the
 * allow-list of those /coding/install may install (npm packages, by exact
 * name: the request names a key of this list, never a package).
 */
export interface CodingCli {
  name: string;
  capabilities: string[];
  /** the argv after the program that prints its version */
  versionArgs: string[];
}

export const CODING_CLIS: readonly CodingCli[] = [
  { name: 'node', capabilities: ['run JavaScript', 'the built-in executor’s runtime'], versionArgs: ['--version'] },
  { name: 'npm', capabilities: ['install JavaScript packages'], versionArgs: ['--version'] },
  { name: 'python3', capabilities: ['run Python'], versionArgs: ['--version'] },
  { name: 'pip3', capabilities: ['install Python packages'], versionArgs: ['--version'] },
  { name: 'git', capabilities: ['version control'], versionArgs: ['--version'] },
  { name: 'go', capabilities: ['build and run Go'], versionArgs: ['version'] },
  { name: 'rustc', capabilities: ['compile Rust'], versionArgs: ['--version'] },
  { name: 'cargo', capabilities: ['build Rust projects'], versionArgs: ['--version'] },
  { name: 'gcc', capabilities: ['compile C'], versionArgs: ['--version'] },
  { name: 'deno', capabilities: ['run TypeScript and JavaScript'], versionArgs: ['--version'] },
  { name: 'bun', capabilities: ['run TypeScript and JavaScript'], versionArgs: ['--version'] },
  { name: 'claude', capabilities: ['coding agent (Claude Code)'], versionArgs: ['--version'] },
  { name: 'codex', capabilities: ['coding agent (OpenAI Codex CLI)'], versionArgs: ['--version'] },
  { name: 'gemini', capabilities: ['coding agent (Gemini CLI)'], versionArgs: ['--version'] },
  { name: 'aider', capabilities: ['coding agent (aider)'], versionArgs: ['--version'] },
];

/** /coding/install's allow-list: tool name → the npm package that provides it. */
export const INSTALLABLE_CODING_TOOLS: Readonly<Record<string, string>> = {
  claude: '@anthropic-ai/claude-code',
  codex: '@openai/codex',
  gemini: '@google/gemini-cli',
};

/** The executors /coding/execute runs tasks with. */
export const CODING_EXECUTORS = ['builtin'] as const;
