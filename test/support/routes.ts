/**
 * What a fuzz or matrix test needs to reach every route without a list kept
 * by hand: the routes as the running app registered them (Fastify's
 * `onRoute` hook, given to createApp by startTestApp, so it sees every route), and the
 * names of the fields that the request readers and DTOs read (from the
 * source of src/modules).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';

export interface RouteInfo {
  method: string;
  /** as registered, with `:param` placeholders */
  url: string;
}

/** An onRoute hook (createApp's `onRoute` option) that adds every route registered to `routes`. */
export function routeRecorder(routes: RouteInfo[]): (route: RouteOptions) => void {
  return (route) => {
    for (const method of [route.method].flat()) routes.push({ method: String(method), url: route.url });
  };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const FIELD_PATTERNS = [
  // DTO properties: `  @IsString() name!: string;` or on a line of their own
  /^\s*(?:@[^\n;]*\)\s+)*([a-z][a-z0-9_]*)[!?]:\s/gm,
  // readers: body.field, body['field'], (body, 'field'), @Query('field'), @Param('field')
  /\bbody\.([a-z][a-z0-9_]*)/g,
  /\bbody\[['"]([a-z][a-z0-9_]*)['"]\]/g,
  /\(body, '([a-z][a-z0-9_]*)'/g,
  /@(?:Query|Param)\('([a-z][a-z0-9_]*)'\)/g,
  /\bquery\.([a-z][a-z0-9_]*)/g,
];

/** Every field name that a request DTO or reader of src/modules reads (more is harmless: unknown fields are ignored). */
export function requestFieldNames(root = join(__dirname, '../../src/modules')): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(root).filter((f) => /\.(requests|controller)\.ts$/.test(f) || f.endsWith('sse.ts'))) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of FIELD_PATTERNS) for (const match of text.matchAll(pattern)) names.add(match[1]);
    // const { track, limit } = query;
    for (const match of text.matchAll(/\{([a-z0-9_,\s]+)\}\s*=\s*(?:query|body)\b/g)) {
      for (const name of match[1].split(',')) if (name.trim()) names.add(name.trim());
    }
  }
  return [...names].sort();
}
