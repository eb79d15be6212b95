/**
 * The patterns behind redactSecrets, most specific first: a vendor's key is
 * reported as that vendor's kind before the generic context rules (bearer,
 * password=, token=) see it, and the `[REDACTED:…]` marker it leaves matches
 * nothing after it.
 *
 * Each pattern has a `secret` group (replaced) and may keep a `pre` and a
 * `post` group around it (the "password=" or the "user@host" part).
 * `accept` vetoes a match that only looks like a secret; `requires` limits a
 * rule to texts where another kind gave the context.
 */
export interface SecretRule {
  kind: string;
  pattern: RegExp;
  accept?: (secret: string) => boolean;
  /** applies only when an earlier rule found this kind in the same text */
  requires?: string;
}

/** Random-looking: a long run of letters and digits, with a digit or with both cases. Kebab-case names are not. */
export function looksRandom(value: string, minRun = 16): boolean {
  const longestRun = Math.max(0, ...(value.match(/[A-Za-z0-9]+/g) ?? []).map((run) => run.length));
  const mixed = /[0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value));
  return longestRun >= minRun && mixed;
}

/** Values in docs and code that stand for a secret without being one: $VAR, <password>, ****, YOUR_TOKEN. */
export function isPlaceholder(value: string): boolean {
  return (
    value === '' ||
    /^(?:\$|%|<|\{\{|\[REDACTED)/.test(value) ||
    /^(.)\1*$/.test(value) ||
    /^(?:your|my|insert|enter|placeholder)[_-]/i.test(value)
  );
}

/** An unquoted password= value that is code, not a password: a type, a variable, a call, a keyword. */
function isCodeValue(value: string): boolean {
  return (
    /^(?:str|string|bytes|int|number|any|none|null|nil|undefined|true|false|bool|boolean|required|optional\b.*|secretstr)$/i.test(value) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) || // self.password, process.env.DB_PASSWORD
    /[([]/.test(value) || // getpass(), os.environ["X"]
    /^[A-Za-z_]*(?:pass|pwd|secret)[A-Za-z_]*$/i.test(value) // password=password, pwd=db_pwd
  );
}

const notAfter = (chars: string) => `(?<![${chars}])`;
const notBefore = (chars: string) => `(?![${chars}])`;
const TOKEN_CHARS = 'A-Za-z0-9_-';
const PEM_LABEL = '[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?';
const PEM_LINE_BREAK = '(?:\\r?\\n|\\\\n)'; // a real newline, or "\n" escaped inside JSON
const notPlaceholder = (value: string) => !isPlaceholder(value);
const passwordValue = (value: string) => !isPlaceholder(value) && !isCodeValue(value);

const PASSWORD_KEY = String.raw`\b[\w.-]{0,40}?(?:password|passwd|passphrase|pwd)["']?[ \t]*[:=](?!=)[ \t]*`;

export const SECRET_RULES: SecretRule[] = [
  {
    kind: 'private_key',
    pattern: new RegExp(`(?<secret>-----BEGIN (?<label>${PEM_LABEL})-----[\\s\\S]*?-----END \\k<label>-----)`, 'g'),
  },
  {
    // a truncated paste: the header and the key lines that follow it
    kind: 'private_key',
    pattern: new RegExp(
      `(?<secret>-----BEGIN ${PEM_LABEL}-----(?:(?:${PEM_LINE_BREAK}[ \\t]*)?${PEM_LINE_BREAK}` +
        `(?:[A-Za-z0-9+/=]{8,}|(?:Proc-Type|DEK-Info|Comment|Version):[^\\r\\n]*))*)`,
      'g',
    ),
  },
  {
    // scheme://user:pass@host: keep the user and the host
    kind: 'connection_string_password',
    pattern: /(?<pre>\b[a-zA-Z][a-zA-Z0-9+.-]{0,30}:\/\/[^\s:/@?#]{0,256}:)(?<secret>[^\s@/?#]+)(?<post>@)/g,
    accept: notPlaceholder,
  },
  {
    kind: 'slack_webhook',
    pattern: /(?<pre>https:\/\/hooks\.slack\.com\/services\/)(?<secret>T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+)/g,
  },
  {
    kind: 'anthropic_api_key',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>sk-ant-[A-Za-z0-9_-]{20,})`, 'g'),
  },
  {
    kind: 'openai_api_key',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,})`, 'g'),
    accept: (secret) => looksRandom(secret),
  },
  {
    kind: 'stripe_key',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,})`, 'g'),
  },
  {
    kind: 'github_token',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`, 'g'),
  },
  {
    kind: 'slack_token',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>xox[baprse]-[A-Za-z0-9-]{10,})`, 'g'),
    accept: (secret) => /[0-9]/.test(secret),
  },
  {
    kind: 'google_api_key',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>AIza[A-Za-z0-9_-]{35})${notBefore(TOKEN_CHARS)}`, 'g'),
  },
  {
    kind: 'aws_access_key_id',
    pattern: /(?<![A-Za-z0-9])(?<secret>(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16})(?![A-Za-z0-9])/g,
  },
  {
    // this service's own keys: ak_<16 hex key id>_<43 base64url secret>; a truncated one still leaks
    kind: 'platform_api_key',
    pattern: new RegExp(`${notAfter(TOKEN_CHARS)}(?<secret>ak_[a-f0-9]{16}_[A-Za-z0-9_-]{20,})`, 'g'),
  },
  {
    // header.payload.signature (JWS) or up to five parts (JWE); the header is JSON, so "eyJ"
    kind: 'jwt',
    pattern: new RegExp(
      `${notAfter(TOKEN_CHARS)}(?<secret>eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{2,}\\.[A-Za-z0-9_-]+(?:\\.[A-Za-z0-9_-]+){0,2})${notBefore(TOKEN_CHARS)}`,
      'g',
    ),
  },
  {
    // a secret access key has no shape of its own (40 base64 chars): only next to its name
    kind: 'aws_secret_access_key',
    pattern:
      /(?<pre>\b(?:aws[ _-]?)?secret[ _-]?(?:access[ _-]?)?key["']?\s*[:=]\s*["']?)(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/gi,
  },
  {
    // …or next to an access key id anywhere in the same text (a pasted key pair);
    // both cases and a digit, so a 40-hex git SHA never qualifies
    kind: 'aws_secret_access_key',
    pattern: /(?<![A-Za-z0-9/+=])(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g,
    accept: (secret) => /[a-z]/.test(secret) && /[A-Z]/.test(secret) && /[0-9]/.test(secret),
    requires: 'aws_access_key_id',
  },
  {
    kind: 'bearer_token',
    pattern: /(?<pre>\bAuthorization["']?\s*[:=]\s*["']?(?:Bearer|Token)\s+)(?<secret>[A-Za-z0-9._~+/=-]{8,})/gi,
    accept: notPlaceholder,
  },
  {
    kind: 'basic_auth',
    pattern: /(?<pre>\bAuthorization["']?\s*[:=]\s*["']?Basic\s+)(?<secret>[A-Za-z0-9+/=]{8,})/gi,
    accept: notPlaceholder,
  },
  {
    // "password": "…" / password='…': everything between the quotes
    kind: 'password',
    pattern: new RegExp(`(?<pre>${PASSWORD_KEY}(?<quote>["']))(?<secret>(?:\\\\.|(?!\\k<quote>)[^\\\\\\r\\n])+)(?<post>\\k<quote>)`, 'gi'),
    accept: passwordValue,
  },
  {
    // ?password=…& in a URL's query: the value ends at the next parameter
    kind: 'password',
    pattern: /(?<pre>[?&][\w.-]{0,40}?(?:password|passwd|passphrase|pwd)=)(?<secret>[^\s&#"']+)/gi,
    accept: passwordValue,
  },
  {
    // password=… / password: … unquoted (env files, YAML, ODBC "Pwd=…;")
    kind: 'password',
    pattern: new RegExp(`(?<pre>${PASSWORD_KEY})(?<secret>[^\\s"',;)}\\]]+)`, 'gi'),
    accept: passwordValue,
  },
  {
    // api_key=…, client_secret: "…", token=…: any vendor's, but only random-looking values
    kind: 'generic_secret',
    pattern:
      /(?<pre>\b[\w.-]{0,40}?(?:api[_-]?key|secret|token)["']?[ \t]*[:=](?!=)[ \t]*["']?)(?<secret>[A-Za-z0-9_\-+/=.~]{16,})/gi,
    accept: (secret) => !isPlaceholder(secret) && looksRandom(secret, 12) && /[A-Za-z]/.test(secret) && /[0-9]/.test(secret),
  },
  {
    // 13–19 digits, optionally grouped by spaces or dashes; accept() checks grouping, issuer prefix and Luhn
    kind: 'card_number',
    pattern: /(?<![\w.+-])(?<secret>\d(?:[ -]?\d){12,18})(?![\w-]|[.,]\d)/g,
    accept: isCardNumber,
  },
];

/** Card-shaped: consistent grouping, a card issuer's prefix, and the Luhn check. */
export function isCardNumber(candidate: string): boolean {
  const digits = candidate.replace(/[ -]/g, '');
  if (digits.length < 13 || digits.length > 19) return false;
  const separators = new Set(candidate.match(/[ -]/g) ?? []);
  if (separators.size > 1) return false;
  if (separators.size === 1) {
    const groups = candidate.split(/[ -]/).map((group) => group.length).join('-');
    // 4-4-4-4(-1..3) for most cards, 4-6-5 (Amex) and 4-6-4 (Diners)
    if (!/^4-4-4-(?:[1-4]|4-[1-3])$/.test(groups) && groups !== '4-6-5' && groups !== '4-6-4') return false;
  }
  return hasIssuerPrefix(digits) && luhn(digits);
}

/** Visa 4, Mastercard 51–55 and 2221–2720, Amex 34/37, Diners 30/36/38/39, JCB 35, Discover/UnionPay/Maestro 5x/6x. */
function hasIssuerPrefix(digits: string): boolean {
  if (/^[456]/.test(digits) || /^3[0456789]/.test(digits)) return true;
  const four = Number(digits.slice(0, 4));
  return four >= 2221 && four <= 2720;
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
