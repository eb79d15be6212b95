/**
 * The HTML of the agent pages (docs/api.md "Embedding"): the full chat page
 * for an iframe, the audio-only plugin page, and the refusal page shown for a
 * bad sign-in link. Small, dependency-free documents whose one script and one
 * style sheet are inline and allowed by their SHA-256 in the page's own
 * Content-Security-Policy; nothing else may run, load or be posted to.
 */
import { createHash } from 'node:crypto';
import { EMBED_PAGE_SCRIPT } from './assets/embed-page.script';

export type PageMode = 'chat' | 'plugin';

export interface PageSettings {
  mode: PageMode;
  agentName: string;
  promptId: string;
  /** a verified JWT to act as; null: the page registers a guest when it mounts */
  token: string | null;
  /** a display hint from the widget object (never a credential) */
  email: string | null;
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:15px/1.4 system-ui,sans-serif;color:#1f2430;background:#fff;display:flex;flex-direction:column;height:100vh}
header{padding:10px 14px;background:#4f46e5;color:#fff;font-weight:600}
#status{padding:4px 14px;font-size:12px;color:#5b6170;min-height:1.6em}
#log{flex:1;overflow-y:auto;padding:10px 14px}
.msg{margin:6px 0;padding:8px 10px;border-radius:10px;max-width:85%;white-space:pre-wrap;word-wrap:break-word}
.msg p{margin:0}
.user{margin-left:auto;background:#4f46e5;color:#fff}
.agent{background:#f1f2f6}
.error{background:#fde8e8;color:#8a1c1c}
.video{display:block;max-width:100%;margin-top:6px;border-radius:8px}
.download{display:inline-block;margin-top:4px;font-size:13px}
form{display:flex;gap:8px;padding:10px 14px;border-top:1px solid #e4e6ec}
form[hidden]{display:none}
input{flex:1;padding:8px 10px;border:1px solid #c9ccd6;border-radius:8px;font:inherit}
button{padding:8px 14px;border:0;border-radius:8px;background:#4f46e5;color:#fff;font:inherit;cursor:pointer}
#mic{margin:24px auto;width:120px;height:120px;border-radius:50%;font-size:15px}
#mic[aria-pressed=true]{background:#dc2626}
#mic[hidden]{display:none}
main.refused{margin:40px auto;max-width:420px;padding:20px;border:1px solid #f3b4b4;border-radius:12px;background:#fff5f5;color:#8a1c1c}
`;

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const SCRIPT_HASH = sha256(EMBED_PAGE_SCRIPT);
const STYLE_HASH = sha256(STYLE);

/** The page's own policy: its inline script and style only, calls to this node only, media from https (a reply's video) and blob: (the node's speech), framed by `frameAncestors`. */
export function pageSecurityPolicy(frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    `script-src ${SCRIPT_HASH}`,
    `style-src ${STYLE_HASH}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    // blob: the node's speech (a WAV fetched from /api/tools/tts/speak) played from memory
    "media-src 'self' https: blob:",
    `frame-ancestors ${frameAncestors.join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** What the page may ask of the browser; a framing page grants the same with `allow="microphone; camera; autoplay"` (SPEC §4.8). */
export const PAGE_PERMISSIONS = 'microphone=(self), camera=(self), autoplay=(self), geolocation=()';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** JSON safe inside a <script> block: no `<`, so no `</script>`, and no line separators. */
const scriptJson = (value: unknown): string =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
${body}
</html>
`;
}

export function agentPage(settings: PageSettings): string {
  const config = scriptJson({
    mode: settings.mode,
    agentName: settings.agentName,
    promptId: settings.promptId,
    token: settings.token,
    email: settings.email,
  });
  const name = escapeHtml(settings.agentName);
  const composer = (hidden: boolean) =>
    `<form id="composer"${hidden ? ' hidden' : ''}><input id="prompt" name="prompt" autocomplete="off" aria-label="Message" placeholder="Type a message…" maxlength="4000"><button type="submit">Send</button></form>`;
  const main =
    settings.mode === 'plugin'
      ? `<button id="mic" type="button" aria-pressed="false" aria-label="Speak to ${name}">Speak</button>
<div id="log" aria-live="polite"></div>
${composer(true)}`
      : `<div id="log" aria-live="polite"></div>
${composer(false)}`;
  return document(
    settings.agentName,
    `<body data-mode="${settings.mode}" data-ready="false">
<header>${name}</header>
<div id="status" role="status"></div>
${main}
<script type="application/json" id="agent-config">${config}</script>
<script>${EMBED_PAGE_SCRIPT}</script>
</body>`,
  );
}

/** A refusal the visitor can read (a bad or expired sign-in link): no script runs. */
export function refusalPage(message: string): string {
  return document('Cannot open this chat', `<body data-refused="true">\n<main class="refused" role="alert"><h1>Cannot open this chat</h1><p>${escapeHtml(message)}</p></main>\n</body>`);
}
