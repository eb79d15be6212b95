import { isCardNumber } from './secret-patterns';
import { redactSecrets } from './secret-redaction';

/**
 * Fake secrets are built here, not written out, so that the source holds no
 * string a secret scanner would flag; they have the real shapes.
 */
const MIXED = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zCf';
const fake = (length: number, alphabet = MIXED) =>
  Array.from({ length }, (_, i) => alphabet[(i * 7) % alphabet.length]).join('');
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

const OPENAI_LEGACY = `sk-${fake(48)}`;
const OPENAI_PROJECT = `sk-proj-${fake(40)}_${fake(30)}-${fake(60)}`;
const ANTHROPIC = `sk-ant-api03-${fake(93)}-${fake(6)}AA`;
const AWS_ID = `AKIA${fake(16, UPPER)}`;
const AWS_SECRET = `${fake(20)}/${fake(14)}+${fake(4)}`; // 40 base64 chars
const GITHUB_PAT = `ghp_${fake(36)}`;
const GITHUB_OAUTH = `gho_${fake(36)}`;
const GITHUB_FINE = `github_pat_${fake(22)}_${fake(59)}`;
const SLACK = `xoxb-123456789012-1234567890123-${fake(24)}`;
const GOOGLE = `AIza${fake(35)}`;
const STRIPE_LIVE = `sk_live_${fake(24)}`;
const STRIPE_RESTRICTED = `rk_live_${fake(24)}`;
const JWT = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: '1234567890', name: 'Ann', iat: 1516239022 })}.${fake(43)}`;
const PLATFORM_KEY = `ak_0123456789abcdef_${fake(43)}`;
const PEM_BODY = Array.from({ length: 4 }, (_, i) => fake(64).slice(i) + fake(i + 1)).join('\n');
const pem = (label: string) => `-----BEGIN ${label}-----\n${PEM_BODY}\n-----END ${label}-----`;

function expectRedacted(input: string, expected: string, kind: string, count = 1) {
  const result = redactSecrets(input);
  expect(result.text).toBe(expected);
  expect(result.redactions).toEqual([{ kind, count }]);
}

function expectUntouched(input: string) {
  expect(redactSecrets(input)).toEqual({ text: input, redactions: [] });
}

describe('redactSecrets', () => {
  describe('vendor API keys and tokens', () => {
    it.each([
      ['OpenAI legacy key', OPENAI_LEGACY, 'openai_api_key'],
      ['OpenAI project key', OPENAI_PROJECT, 'openai_api_key'],
      ['Anthropic key', ANTHROPIC, 'anthropic_api_key'],
      ['AWS access key id', AWS_ID, 'aws_access_key_id'],
      ['AWS temporary access key id', `ASIA${fake(16, UPPER)}`, 'aws_access_key_id'],
      ['GitHub personal token', GITHUB_PAT, 'github_token'],
      ['GitHub OAuth token', GITHUB_OAUTH, 'github_token'],
      ['GitHub fine-grained token', GITHUB_FINE, 'github_token'],
      ['Slack bot token', SLACK, 'slack_token'],
      ['Slack user token', `xoxp-${SLACK.slice(5)}`, 'slack_token'],
      ['Google API key', GOOGLE, 'google_api_key'],
      ['Stripe live secret key', STRIPE_LIVE, 'stripe_key'],
      ['Stripe restricted key', STRIPE_RESTRICTED, 'stripe_key'],
      ['this service’s API key', PLATFORM_KEY, 'platform_api_key'],
      ['JWT', JWT, 'jwt'],
    ])('redacts a %s in running text', (_name, secret, kind) => {
      expectRedacted(`my key is ${secret}, please use it`, `my key is [REDACTED:${kind}], please use it`, kind);
    });

    it('redacts a key at the very start and end of the text and inside quotes', () => {
      expectRedacted(OPENAI_LEGACY, '[REDACTED:openai_api_key]', 'openai_api_key');
      expectRedacted(
        `OPENAI_API_KEY="${OPENAI_LEGACY}"`,
        'OPENAI_API_KEY="[REDACTED:openai_api_key]"',
        'openai_api_key',
      );
    });

    it('reports an Anthropic key as Anthropic, not OpenAI', () => {
      expect(redactSecrets(ANTHROPIC).redactions).toEqual([{ kind: 'anthropic_api_key', count: 1 }]);
    });

    it('redacts this service’s key however it is presented', () => {
      expectRedacted(`X-API-Key: ${PLATFORM_KEY}`, 'X-API-Key: [REDACTED:platform_api_key]', 'platform_api_key');
      expectRedacted(
        `Authorization: Bearer ${PLATFORM_KEY}`,
        'Authorization: Bearer [REDACTED:platform_api_key]',
        'platform_api_key',
      );
    });

    it('redacts a Slack webhook URL but keeps the host', () => {
      expectRedacted(
        `post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/${fake(24)} please`,
        'post to https://hooks.slack.com/services/[REDACTED:slack_webhook] please',
        'slack_webhook',
      );
    });

    it('redacts an AWS secret access key next to its name, in env, ini and JSON forms', () => {
      expectRedacted(
        `AWS_SECRET_ACCESS_KEY=${AWS_SECRET}`,
        'AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_access_key]',
        'aws_secret_access_key',
      );
      expectRedacted(
        `aws_secret_access_key = ${AWS_SECRET}\n`,
        'aws_secret_access_key = [REDACTED:aws_secret_access_key]\n',
        'aws_secret_access_key',
      );
      expectRedacted(
        `{"SecretAccessKey": "${AWS_SECRET}"}`,
        '{"SecretAccessKey": "[REDACTED:aws_secret_access_key]"}',
        'aws_secret_access_key',
      );
    });

    it('redacts an unnamed secret access key pasted with its access key id, but not a git SHA', () => {
      const sha = '9fceb02d0ae598e95dc970b74767f19372d61af8';
      const result = redactSecrets(`id ${AWS_ID} secret ${AWS_SECRET} commit ${sha}`);
      expect(result.text).toBe(`id [REDACTED:aws_access_key_id] secret [REDACTED:aws_secret_access_key] commit ${sha}`);
    });

    it('redacts a full AWS credentials file', () => {
      const result = redactSecrets(`[default]\naws_access_key_id = ${AWS_ID}\naws_secret_access_key = ${AWS_SECRET}\n`);
      expect(result.text).toBe(
        '[default]\naws_access_key_id = [REDACTED:aws_access_key_id]\naws_secret_access_key = [REDACTED:aws_secret_access_key]\n',
      );
    });
  });

  describe('Authorization headers', () => {
    it('redacts a bearer token and keeps the header', () => {
      expectRedacted(
        'curl -H "Authorization: Bearer abc123.def456-ghi789" https://api.example.com',
        'curl -H "Authorization: Bearer [REDACTED:bearer_token]" https://api.example.com',
        'bearer_token',
      );
      expectRedacted(
        "headers = {'Authorization': 'Bearer opaqueTokenValue42'}",
        "headers = {'Authorization': 'Bearer [REDACTED:bearer_token]'}",
        'bearer_token',
      );
    });

    it('reports a JWT sent as a bearer token as a JWT', () => {
      expectRedacted(`Authorization: Bearer ${JWT}`, 'Authorization: Bearer [REDACTED:jwt]', 'jwt');
    });

    it('redacts basic credentials', () => {
      expectRedacted(
        `Authorization: Basic ${Buffer.from('ann:hunter2').toString('base64')}`,
        'Authorization: Basic [REDACTED:basic_auth]',
        'basic_auth',
      );
    });

    it.each([
      'curl -H "Authorization: Bearer $TOKEN" https://api.example.com',
      'Authorization: Bearer <token>',
      'Authorization: Bearer ${ACCESS_TOKEN}',
      'Authorization: Bearer YOUR_TOKEN',
      'Send the token in an Authorization: Bearer header.',
    ])('leaves a header that only names a token alone: %s', (text) => {
      expectUntouched(text);
    });
  });

  describe('private keys', () => {
    it.each(['PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'])(
      'redacts a whole %s block',
      (label) => {
        expectRedacted(`here:\n${pem(label)}\nthanks`, 'here:\n[REDACTED:private_key]\nthanks', 'private_key');
      },
    );

    it('redacts a PGP private key block', () => {
      expectRedacted(pem('PGP PRIVATE KEY BLOCK'), '[REDACTED:private_key]', 'private_key');
    });

    it('redacts a key with escaped newlines inside JSON', () => {
      const escaped = pem('PRIVATE KEY').replace(/\n/g, '\\n');
      expectRedacted(
        `{"private_key": "${escaped}\\n", "client_email": "svc@example.iam.gserviceaccount.com"}`,
        '{"private_key": "[REDACTED:private_key]\\n", "client_email": "svc@example.iam.gserviceaccount.com"}',
        'private_key',
      );
    });

    it('redacts a truncated key (no END line) but not the prose after it', () => {
      const truncated = pem('RSA PRIVATE KEY').split('\n-----END')[0];
      expectRedacted(
        `${truncated}\nwhy does ssh reject this key?`,
        '[REDACTED:private_key]\nwhy does ssh reject this key?',
        'private_key',
      );
    });

    it('leaves public keys and certificates alone', () => {
      expectUntouched(pem('PUBLIC KEY'));
      expectUntouched(pem('CERTIFICATE'));
    });
  });

  describe('passwords', () => {
    it.each([
      ['password=hunter2', 'password=[REDACTED:password]'],
      ['password: hunter2', 'password: [REDACTED:password]'],
      ['password = hunter2 and user = bob', 'password = [REDACTED:password] and user = bob'],
      ['{"username": "ann", "password": "p@ss w0rd!"}', '{"username": "ann", "password": "[REDACTED:password]"}'],
      ["password='it\\'s s3cret'", "password='[REDACTED:password]'"],
      ['DB_PASSWORD=s3cr3t!', 'DB_PASSWORD=[REDACTED:password]'],
      ['db:\n  user: app\n  password: Tr0ub4dor&3\n', 'db:\n  user: app\n  password: [REDACTED:password]\n'],
      ['https://example.com/login?user=bob&password=xyz789&next=/', 'https://example.com/login?user=bob&password=[REDACTED:password]&next=/'],
      ['Server=db;Uid=sa;Pwd=Secr3t;Database=app', 'Server=db;Uid=sa;Pwd=[REDACTED:password];Database=app'],
      ['PASSWORD: Hunter2', 'PASSWORD: [REDACTED:password]'],
      ['ssh_passphrase="correct horse battery staple"', 'ssh_passphrase="[REDACTED:password]"'],
    ])('redacts %j', (input, expected) => {
      expectRedacted(input, expected, 'password');
    });

    it.each([
      'password=os.environ["DB_PASSWORD"]',
      'def login(username: str, password: str) -> bool:',
      'interface Login { username: string; password: string; }',
      'conn = connect(user=user, password=password)',
      'password=self.password',
      'password: process.env.DB_PASSWORD',
      'password=${DB_PASSWORD}',
      'password=$PGPASSWORD',
      'password: <your password>',
      'Password: ********',
      'if password == expected:',
      'The password must be at least 12 characters long.',
      'password_hash: argon2id',
      'passwordless: true',
      'forgot_password: false',
    ])('leaves code and prose that only name a password alone: %j', (text) => {
      expectUntouched(text);
    });
  });

  describe('connection strings', () => {
    it.each([
      ['postgres://app:S3cret@db.example.com:5432/app', 'postgres://app:[REDACTED:connection_string_password]@db.example.com:5432/app'],
      ['mongodb+srv://admin:p%40ss1@cluster0.example.net/db?retryWrites=true', 'mongodb+srv://admin:[REDACTED:connection_string_password]@cluster0.example.net/db?retryWrites=true'],
      ['REDIS_URL=redis://:pw123@localhost:6379/0', 'REDIS_URL=redis://:[REDACTED:connection_string_password]@localhost:6379/0'],
      ['amqp://guest:guest@rabbit:5672', 'amqp://guest:[REDACTED:connection_string_password]@rabbit:5672'],
    ])('keeps the user and host and redacts the password: %s', (input, expected) => {
      expectRedacted(input, expected, 'connection_string_password');
    });

    it.each([
      'https://example.com:8080/path?q=1',
      'ssh://git@github.com/org/repo.git',
      'postgres://app@db.example.com/app',
      'postgres://app:${PGPASSWORD}@db/app',
      'mailto:ann@example.com',
    ])('leaves a URL without a password alone: %s', (text) => {
      expectUntouched(text);
    });
  });

  describe('generic secrets by name', () => {
    it('redacts a random-looking value assigned to an api key, secret or token name', () => {
      expectRedacted(
        `MY_SERVICE_API_KEY=${fake(32)}`,
        'MY_SERVICE_API_KEY=[REDACTED:generic_secret]',
        'generic_secret',
      );
      expectRedacted(`client_secret: "${fake(24)}"`, 'client_secret: "[REDACTED:generic_secret]"', 'generic_secret');
    });

    it.each([
      'max_tokens: 1000000000000000',
      'api_key = os.environ["API_KEY"]',
      'csrf_token = generate_csrf_token()',
      'token: your-token-goes-here',
      'secret: my-kebab-case-secret-name',
    ])('leaves %j alone', (text) => {
      expectUntouched(text);
    });
  });

  describe('payment card numbers', () => {
    it.each([
      ['4111 1111 1111 1111', 'Visa, spaced'],
      ['4111-1111-1111-1111', 'Visa, dashed'],
      ['4111111111111111', 'Visa, plain'],
      ['5555555555554444', 'Mastercard'],
      ['2223003122003222', 'Mastercard 2-series'],
      ['3782 822463 10005', 'Amex, 4-6-5'],
      ['6011111111111117', 'Discover'],
      ['4222222222222', 'Visa, 13 digits'],
    ])('redacts %s (%s) when the Luhn check passes', (card) => {
      expectRedacted(`card ${card}, exp 12/29`, 'card [REDACTED:card_number], exp 12/29', 'card_number');
    });

    it('redacts a card at the end of a sentence', () => {
      expectRedacted('Charge 4111111111111111.', 'Charge [REDACTED:card_number].', 'card_number');
    });

    it.each([
      ['4111111111111112', 'fails Luhn'],
      ['1234567890123452', 'no card issuer starts with 1'],
      ['1700000000000', 'millisecond timestamp'],
      ['20240115103000', 'compact date-time'],
      ['4111 1111 11 11 1111', 'irregular grouping'],
      ['4111 1111-1111 1111', 'mixed separators'],
      ['+1 415-555-0132', 'phone number'],
      ['+44 20 7946 0958', 'phone number'],
      ['12,345,678,901,234', 'number with thousands separators'],
      ['3.14159265358979323', 'decimal'],
      ['123456789012', 'twelve digits'],
      ['41111111111111111111', 'twenty digits'],
    ])('leaves %s (%s) alone', (number) => {
      expectUntouched(`value: ${number} here`);
    });

    it('checks grouping, issuer and Luhn', () => {
      expect(isCardNumber('4111 1111 1111 1111')).toBe(true);
      expect(isCardNumber('4111 1111 1111 1112')).toBe(false);
      expect(isCardNumber('3056 930902 5904')).toBe(true); // Diners 4-6-4
    });
  });

  describe('false positives', () => {
    it.each([
      ['a UUID', '550e8400-e29b-41d4-a716-446655440000'],
      ['an all-digit UUID', '12345678-1234-1234-1234-123456789012'],
      ['a git SHA', '9fceb02d0ae598e95dc970b74767f19372d61af8'],
      ['a digit-heavy SHA', '4111111111111111111111111111111111111abc'],
      ['a short SHA', 'fix landed in 9fceb02'],
      ['a SHA-256 digest', 'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
      ['dates', 'between 2024-01-15 and 2024-02-29T10:30:00Z (20240115)'],
      ['ordinary numbers', 'we sold 1234567 units for $89,999.99 in 2023, order #100234'],
      ['a sk- word', 'I use sk-learn and risk-management-framework-version-two daily'],
      ['a kebab-case sk- name', 'the sk-my-config-name-here-and-more setting'],
      ['the word AKIA alone', 'AKIA is the prefix of AWS access key ids'],
      ['an eyJ word', 'eyJhbGciOi is how a JWT header starts'],
      ['a 40-char base64 string with no name', `blob ${AWS_SECRET} end`],
      ['an IP and port', 'connect to 192.168.10.254:5432'],
      ['a semantic version', 'upgrade to 11.2.10-beta.1'],
      ['plain prose', 'Kill the process on port 8080 and restart the server.'],
      ['an empty text', ''],
    ])('leaves %s alone', (_name, text) => {
      expectUntouched(text);
    });
  });

  it('counts redactions per kind across a mixed text', () => {
    const result = redactSecrets(
      [
        `github: ${GITHUB_PAT} and ${GITHUB_OAUTH}`,
        `stripe: ${STRIPE_LIVE}`,
        'password=hunter2',
        'card 4111 1111 1111 1111 and 5555555555554444',
        `db postgres://app:S3cret@db/app`,
      ].join('\n'),
    );
    expect(result.text).toBe(
      [
        'github: [REDACTED:github_token] and [REDACTED:github_token]',
        'stripe: [REDACTED:stripe_key]',
        'password=[REDACTED:password]',
        'card [REDACTED:card_number] and [REDACTED:card_number]',
        'db postgres://app:[REDACTED:connection_string_password]@db/app',
      ].join('\n'),
    );
    expect(result.redactions).toEqual([
      { kind: 'connection_string_password', count: 1 },
      { kind: 'stripe_key', count: 1 },
      { kind: 'github_token', count: 2 },
      { kind: 'password', count: 1 },
      { kind: 'card_number', count: 2 },
    ]);
  });

  it('is idempotent: redacting a redacted text changes nothing', () => {
    const once = redactSecrets(`key ${OPENAI_LEGACY} password=hunter2 ${pem('PRIVATE KEY')} Authorization: Bearer ${JWT}`);
    expect(once.redactions.length).toBeGreaterThan(0);
    expect(redactSecrets(once.text)).toEqual({ text: once.text, redactions: [] });
  });

  it('never leaves any part of a secret behind', () => {
    const secrets = [OPENAI_PROJECT, ANTHROPIC, GITHUB_FINE, SLACK, GOOGLE, JWT, PLATFORM_KEY, STRIPE_RESTRICTED];
    const result = redactSecrets(secrets.join(' | '));
    for (const secret of secrets) expect(result.text).not.toContain(secret.slice(-12));
  });

  it.each([
    ['ordinary text', `${'lorem ipsum 12345 '.repeat(20_000)}password=x1`],
    ['repeated PEM headers', '-----BEGIN PRIVATE KEY-----\n'.repeat(5_000)],
    ['a long token-character run', 'sk-'.repeat(30_000)],
    ['a long dashed run', 'a-'.repeat(60_000)],
    ['repeated card-like groups', '4111 '.repeat(30_000)],
    ['repeated scheme fragments', 'a://b:'.repeat(20_000)],
  ])('ends on a long text without catastrophic backtracking: %s', (_name, text) => {
    // a hang detector, not a speed measure (npm run bench measures): these texts take milliseconds, a
    // backtracking pattern would take hours on them, so the bound is far above any load on a busy machine
    const started = Date.now();
    redactSecrets(text);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
