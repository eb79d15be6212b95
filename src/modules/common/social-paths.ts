/**
 * The social platform is served under both `/api/social` (the original's
 * mount) and `/social` (SPEC §4.4): a social controller is mounted with
 * `@Controller(socialPaths('posts'))`, or `socialPaths()` for routes at the
 * prefix's root (`/feed`, `/search`).
 */
export function socialPaths(path = ''): string[] {
  const tail = path.replace(/^\/+|\/+$/g, '');
  return tail ? [`api/social/${tail}`, `social/${tail}`] : ['api/social', 'social'];
}
