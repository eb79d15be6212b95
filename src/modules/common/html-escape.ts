/**
 * User text (titles, content, names, bio, descriptions) is HTML-escaped on
 * output (social-routes §0.1): stored as written, escaped when a view is
 * shaped, so a client that renders it as HTML cannot be scripted by it.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };

export function escapeHtml(text: string): string;
export function escapeHtml(text: string | null): string | null;
export function escapeHtml(text: string | null): string | null {
  return text === null ? null : text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}
