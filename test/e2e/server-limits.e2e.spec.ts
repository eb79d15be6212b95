/**
 * The HTTP server's limits on real sockets (HTTP_* in docs/operations.md):
 * slow clients are timed out, connections are capped per client address and
 * in total, and a long-lived SSE stream outlives the request and idle
 * timeouts. The app runs with short configured values.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { eventually } from '../support/eventually';

const LIMITS = {
  HTTP_HEADERS_TIMEOUT_MS: '300',
  HTTP_REQUEST_TIMEOUT_MS: '600',
  HTTP_IDLE_TIMEOUT_MS: '1500',
  HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
  HTTP_MAX_CONNECTIONS_PER_IP: '4',
  SVC_ENCOUNTER_STREAM_HEARTBEAT_SEC: '1',
};

/** A raw client socket; records when it was closed by the server and what it received. */
class RawClient {
  closedAt: number | null = null;
  received = '';
  readonly openedAt = Date.now();

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (this.received += chunk));
    socket.on('close', () => (this.closedAt = Date.now()));
    socket.on('error', () => undefined);
  }

  /** `localAddress` picks the client's address on the loopback (127.0.0.2, ...), so each test is its own client. */
  static open(url: string, localAddress: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port), localAddress });
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  get closed(): boolean {
    return this.closedAt !== null;
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** One GET over this connection; resolves with the response head once it arrived. */
  async get(path: string): Promise<string> {
    const before = this.received.length;
    this.send(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    await eventually(`a response to GET ${path}`, () => this.received.slice(before).includes('\r\n\r\n'), { timeoutMs: 5000 });
    return this.received.slice(before);
  }

  close(): void {
    this.socket.destroy();
  }
}

describe('server limits', () => {
  let t: TestApp;
  const clients: RawClient[] = [];
  const open = async (localAddress: string) => {
    const client = await RawClient.open(t.url, localAddress);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp(LIMITS);
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(() => t.close());

  it('given a client that sends half a request head, when the header timeout passes, then the server closes the socket', async () => {
    const client = await open('127.0.0.2');
    client.send('GET /health HTTP/1.1\r\nHost: local');
    await eventually('the socket to be closed', () => client.closed, { timeoutMs: 5000 });
    expect(client.closedAt! - client.openedAt).toBeGreaterThanOrEqual(250);
  });

  it('given a client that connects and sends nothing, when the header timeout passes, then the server closes the socket', async () => {
    const client = await open('127.0.0.3');
    await eventually('the socket to be closed', () => client.closed, { timeoutMs: 5000 });
  });

  it('given a client that sends its body slowly, when the request timeout passes, then the server closes the socket', async () => {
    const client = await open('127.0.0.4');
    client.send('POST /api/social/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const timer = setInterval(() => client.send(' '), 100);
    try {
      await eventually('the socket to be closed', () => client.closed, { timeoutMs: 5000 });
    } finally {
      clearInterval(timer);
    }
    expect(client.closedAt! - client.openedAt).toBeGreaterThanOrEqual(500);
  });

  it('given a kept-alive connection, when it stays idle past the keep-alive timeout, then the server closes it', async () => {
    const client = await open('127.0.0.5');
    expect(await client.get('/health')).toMatch(/^HTTP\/1\.1 200/);
    await eventually('the socket to be closed', () => client.closed, { timeoutMs: 5000 });
  });

  it('given the per-address cap of open connections, when one more connects from that address, then it alone is closed at once', async () => {
    const first = await Promise.all([1, 2, 3, 4].map(() => open('127.0.0.6')));
    const over = await open('127.0.0.6');
    await eventually('the connection over the cap to be closed', () => over.closed, { timeoutMs: 2000 });
    expect(over.received).toBe('');
    for (const client of first) expect(await client.get('/health')).toMatch(/^HTTP\/1\.1 200/);
    const other = await open('127.0.0.7');
    expect(await other.get('/health')).toMatch(/^HTTP\/1\.1 200/);
  });

  it('given a closed connection, when the same address connects again, then it counts no more against the cap', async () => {
    const first = await Promise.all([1, 2, 3, 4].map(() => open('127.0.0.8')));
    first[0].close();
    await eventually('the server to see the close', async () => {
      const again = await open('127.0.0.8');
      if (again.closed) return false;
      return /^HTTP\/1\.1 200/.test(await again.get('/health').catch(() => ''));
    });
  });

  it('given an open SSE stream, when it lasts past the request and idle timeouts, then it stays open and keeps receiving heartbeats', async () => {
    const username = uniqueName('limits');
    const registered = await t.request('POST', '/api/social/register', {
      body: { username, email: `${username}@example.com`, password: 'correct horse battery' },
    });
    const { hostname, port } = new URL(t.url);
    let text = '';
    let ended = false;
    const openedAt = Date.now();
    const req = httpRequest({
      hostname,
      port,
      path: '/api/social/encounter/stream',
      headers: { accept: 'text/event-stream', authorization: `Bearer ${registered.body.data.token}` },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('close', () => (ended = true));
    });
    req.on('error', () => (ended = true));
    req.end();
    try {
      // the request timeout (600 ms) and the idle timeout (1500 ms) both pass while heartbeats arrive every second
      await eventually('three heartbeats, 2 s after opening', () => text.split(': heartbeat').length > 3 && Date.now() - openedAt > 2000, {
        timeoutMs: 10_000,
      });
      expect(ended).toBe(false);
    } finally {
      req.destroy();
    }
  });
});

describe('server limits: total connections', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('given the total cap of open connections, when one more connects, then it is closed at once', async () => {
    t = await startTestApp({ HTTP_MAX_CONNECTIONS: '3', HTTP_MAX_CONNECTIONS_PER_IP: '0' });
    const clients = await Promise.all([1, 2, 3].map(() => RawClient.open(t.url, '127.0.0.9')));
    try {
      const over = await RawClient.open(t.url, '127.0.0.10');
      clients.push(over);
      await eventually('the connection over the cap to be closed', () => over.closed, { timeoutMs: 2000 });
      expect(await clients[0].get('/health')).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const client of clients) client.close();
    }
  });
});
