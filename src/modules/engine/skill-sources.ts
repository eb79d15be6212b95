/**
 * Where skills are found: folders of this node (SKILLS_DIRS) and GitHub
 * repositories through the REST API (GITHUB_API_URL, GITHUB_TOKEN). Each
 * finds SKILL.md files and reads them; parsing and validating is
 * skill-file.ts's.
 */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { DomainError } from '../../aggregates/shared/domain-error';
import { RawBodyError } from '../common/raw-body-error';
import { MAX_SKILL_FILE } from './skill-file';

export interface FoundSkillFile {
  /** where it was found: a file path, or `owner/repo:path@ref` */
  location: string;
  text: string;
  /** the GitHub coordinates, for a found file of a repository */
  github?: { repository: string; path: string; ref: string };
}

const MAX_DEPTH = 4;
const MAX_FILES = 200;

/** SKILL.md files in the folders (and their subfolders, 4 deep; symbolic links are not followed). */
export async function findLocalSkillFiles(dirs: readonly string[]): Promise<{ dirs: { path: string; readable: boolean }[]; files: FoundSkillFile[] }> {
  const files: FoundSkillFile[] = [];
  const seen: { path: string; readable: boolean }[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (files.length >= MAX_FILES) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isFile() && entry.name === 'SKILL.md') {
        const stats = await lstat(path);
        if (stats.size <= MAX_SKILL_FILE) files.push({ location: path, text: await readFile(path, 'utf8') });
        else files.push({ location: path, text: '' });
      } else if (entry.isDirectory() && depth < MAX_DEPTH && !entry.name.startsWith('.') && entry.name !== 'node_modules') {
        await walk(path, depth + 1);
      }
    }
  };
  for (const dir of dirs) {
    try {
      await readdir(dir);
      seen.push({ path: dir, readable: true });
      await walk(dir, 0);
    } catch {
      seen.push({ path: dir, readable: false });
    }
  }
  return { dirs: seen, files };
}

/** A folder given to ingest: its SKILL.md, only inside one of the configured folders (no escape by `..` or a link). */
export async function readSkillFolder(folder: string, dirs: readonly string[]): Promise<FoundSkillFile> {
  let real: string;
  try {
    real = await realpath(folder);
  } catch {
    throw new DomainError('not_found', `no folder ${folder}`);
  }
  const roots = await Promise.all(dirs.map((dir) => realpath(dir).catch(() => null)));
  const inside = roots.some((root) => root !== null && (real === root || (relative(root, real) !== '' && !relative(root, real).startsWith('..') && !relative(root, real).startsWith(sep))));
  if (!inside) throw new DomainError('forbidden', `path must be inside one of the skill folders of this node (SKILLS_DIRS: ${dirs.join(', ') || 'none configured'})`);
  const file = join(real, 'SKILL.md');
  try {
    const stats = await lstat(file);
    if (!stats.isFile()) throw new Error('not a file');
    if (stats.size > MAX_SKILL_FILE) throw new DomainError('invalid', `SKILL.md must be at most ${MAX_SKILL_FILE} characters`);
    return { location: file, text: await readFile(file, 'utf8') };
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw new DomainError('not_found', `no SKILL.md in ${folder}`);
  }
}

export interface GithubOptions {
  baseUrl: string;
  token: string | null;
  timeoutMs?: number;
}

const GITHUB_FILES = 50;

async function github(options: GithubOptions, path: string): Promise<unknown> {
  const url = `${options.baseUrl}${path}`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        'user-agent': 'agent-platform-skills',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new DomainError('unavailable', `the GitHub API at ${options.baseUrl} cannot be reached: ${cause}`);
  }
  const body: unknown = await res.json().catch(() => null);
  const message = (body as { message?: unknown } | null)?.message;
  if (res.status === 404) return null;
  if (res.status === 403 || res.status === 429) {
    if (res.headers.get('x-ratelimit-remaining') === '0' || res.status === 429) {
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      const known = Number.isFinite(reset) && reset > 0;
      throw new DomainError('unavailable', `the GitHub API's rate limit is used up${known ? ` until ${new Date(reset * 1000).toISOString()}` : ''}`, {
        retryAfterSec: known ? Math.max(1, reset - Date.now() / 1000) : 60,
      });
    }
  }
  // the code host refused or failed: a bad gateway, not the client's fault nor this node's
  if (!res.ok) throw new RawBodyError(502, { success: false, error: `the GitHub API answered ${res.status}${typeof message === 'string' ? `: ${message}` : ''}` });
  return body;
}

/** The SKILL.md files of a repository (under `prefix`), read through the REST API: the tree, then each file's contents. */
export async function findGithubSkillFiles(options: GithubOptions, repository: string, ref: string | null, prefix: string | null): Promise<{ ref: string; files: FoundSkillFile[] }> {
  let branch = ref;
  if (branch === null) {
    const repo = (await github(options, `/repos/${repository}`)) as { default_branch?: unknown } | null;
    if (repo === null) throw new DomainError('not_found', `repository ${repository} not found on GitHub (or not visible with this node's token)`);
    branch = typeof repo.default_branch === 'string' ? repo.default_branch : 'main';
  }
  const tree = (await github(options, `/repos/${repository}/git/trees/${encodeURIComponent(branch)}?recursive=1`)) as { tree?: { path?: unknown; type?: unknown }[] } | null;
  if (tree === null) throw new DomainError('not_found', `repository ${repository} has no ref ${branch} on GitHub (or is not visible with this node's token)`);
  const paths = (tree.tree ?? [])
    .filter((entry) => entry.type === 'blob' && typeof entry.path === 'string' && (entry.path === 'SKILL.md' || entry.path.endsWith('/SKILL.md')))
    .map((entry) => entry.path as string)
    .filter((path) => prefix === null || path === `${prefix}/SKILL.md` || path.startsWith(`${prefix.replace(/\/+$/, '')}/`))
    .slice(0, GITHUB_FILES);
  const files: FoundSkillFile[] = [];
  for (const path of paths) {
    const content = (await github(options, `/repos/${repository}/contents/${path.split('/').map(encodeURIComponent).join('/')}?ref=${encodeURIComponent(branch)}`)) as {
      content?: unknown;
      encoding?: unknown;
      size?: unknown;
    } | null;
    const text = content && content.encoding === 'base64' && typeof content.content === 'string' ? Buffer.from(content.content, 'base64').toString('utf8') : '';
    files.push({ location: `${repository}:${path}@${branch}`, text, github: { repository, path, ref: branch } });
  }
  return { ref: branch, files };
}
