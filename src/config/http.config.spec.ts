import { ConfigError } from './config-error';
import { defaultMaxConnections, loadHttpConfig, openFileLimit } from './http.config';

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            1024                 524288               files
`;

describe('HTTP server config', () => {
  it('given no environment, then the documented defaults', () => {
    expect(loadHttpConfig({}, 1_048_576)).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      idleTimeoutMs: 120_000,
      keepAliveTimeoutMs: 72_000,
      maxConnectionsPerIp: 256,
      maxConnections: 10_000,
      corsOrigins: [],
      publicBaseUrl: null,
      embedFrameAncestors: ['*'],
    });
  });

  it('given PUBLIC_BASE_URL, then its origin and path without a trailing slash', () => {
    expect(loadHttpConfig({ PUBLIC_BASE_URL: 'https://hive.example.org/' }, null).publicBaseUrl).toBe('https://hive.example.org');
    expect(loadHttpConfig({ PUBLIC_BASE_URL: 'http://10.0.0.7:6777/hive/' }, null).publicBaseUrl).toBe('http://10.0.0.7:6777/hive');
  });

  it('given a PUBLIC_BASE_URL that is no http URL or carries a query, then a ConfigError names it', () => {
    expect(() => loadHttpConfig({ PUBLIC_BASE_URL: 'hive.example.org' }, null)).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadHttpConfig({ PUBLIC_BASE_URL: 'ftp://hive.example.org' }, null)).toThrow(/PUBLIC_BASE_URL/);
    expect(() => loadHttpConfig({ PUBLIC_BASE_URL: 'https://hive.example.org/?x=1' }, null)).toThrow(/PUBLIC_BASE_URL/);
  });

  it('given EMBED_FRAME_ANCESTORS, then the listed origins may frame the embed pages; a path is a ConfigError', () => {
    expect(loadHttpConfig({ EMBED_FRAME_ANCESTORS: 'https://shop.example https://blog.example/' }, null).embedFrameAncestors).toEqual([
      'https://shop.example',
      'https://blog.example',
    ]);
    expect(() => loadHttpConfig({ EMBED_FRAME_ANCESTORS: 'https://shop.example/x' }, null)).toThrow(/EMBED_FRAME_ANCESTORS/);
  });

  it('given CORS_ORIGINS, then the listed origins (a trailing slash dropped), or any with *', () => {
    expect(loadHttpConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173/' }, null).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadHttpConfig({ CORS_ORIGINS: '*' }, null).corsOrigins).toBe('*');
  });

  it('given an origin with a path or without a scheme, then a ConfigError names CORS_ORIGINS', () => {
    expect(() => loadHttpConfig({ CORS_ORIGINS: 'app.example.com' }, null)).toThrow(ConfigError);
    expect(() => loadHttpConfig({ CORS_ORIGINS: 'https://app.example.com/x' }, null)).toThrow(/CORS_ORIGINS/);
  });

  it('given the common open-file limit of 1024, then the total cap leaves 128 files for the rest', () => {
    expect(loadHttpConfig({}, 1024).maxConnections).toBe(896);
  });

  it('given an unreadable open-file limit, then the total cap is 10000', () => {
    expect(defaultMaxConnections(null)).toBe(10_000);
  });

  it('given /proc/self/limits, then the soft open-file limit is read from it', () => {
    expect(openFileLimit(() => LIMITS)).toBe(1024);
  });

  it('given no /proc, then the open-file limit is unknown', () => {
    expect(
      openFileLimit(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });

  it('given HTTP_MAX_CONNECTIONS, then it wins over the open-file limit', () => {
    expect(loadHttpConfig({ HTTP_MAX_CONNECTIONS: '50' }, 1024).maxConnections).toBe(50);
  });

  it.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: 'soon' }, /HTTP_HEADERS_TIMEOUT_MS: expected an integer 100\.\.3600000, got 'soon'/],
    [{ HTTP_REQUEST_TIMEOUT_MS: '5' }, /HTTP_REQUEST_TIMEOUT_MS: expected an integer/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' }, /HTTP_REQUEST_TIMEOUT_MS: must be at least HTTP_HEADERS_TIMEOUT_MS/],
    [{ HTTP_IDLE_TIMEOUT_MS: '10000' }, /HTTP_IDLE_TIMEOUT_MS: must exceed the SSE heartbeat/],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    [{ HTTP_MAX_CONNECTIONS_PER_IP: 'many' }, /HTTP_MAX_CONNECTIONS_PER_IP/],
    [{ HTTP_MAX_CONNECTIONS: '0' }, /HTTP_MAX_CONNECTIONS: expected an integer 1\.\./],
  ])('given %j, then start fails with a message naming the variable', (env, message) => {
    expect(() => loadHttpConfig(env, 1024)).toThrow(ConfigError);
    expect(() => loadHttpConfig(env, 1024)).toThrow(message);
  });

  it('given HTTP_MAX_CONNECTIONS_PER_IP=0, then there is no cap per address', () => {
    expect(loadHttpConfig({ HTTP_MAX_CONNECTIONS_PER_IP: '0' }, 1024).maxConnectionsPerIp).toBe(0);
  });
});
