/**
 * Headless Chromium for the browser suites: Debian's `chromium` package
 * (installed by .ci/run) driven by playwright-core. Where it is absent the
 * suites skip with the reason printed, unless REQUIRE_SERVICES=1 (CI), which
 * fails them instead. Screenshots go to .cache/screenshots/ (git-ignored) and
 * their paths are printed.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(__dirname, '../../.cache/screenshots');

/** `describe` when Chromium is here; else `describe.skip` with the reason printed, or a failure under REQUIRE_SERVICES=1. */
export function describeWithChromium(name: string, suite: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(name, suite);
    return;
  }
  const reason = `no Chromium at ${CHROMIUM} (apt-get install chromium, as .ci/run does)`;
  if (process.env.REQUIRE_SERVICES === '1') {
    describe(name, () => {
      it('needs Chromium (REQUIRE_SERVICES=1)', () => {
        throw new Error(`REQUIRE_SERVICES=1: ${reason}`);
      });
    });
    return;
  }
  process.stdout.write(`skipping "${name}": ${reason}\n`);
  describe.skip(name, suite);
}

export interface HeadlessChromium {
  browser: Browser;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<HeadlessChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1000, height: 700 },
    // without the background-networking flags Chromium's own connections are refused on a closed network
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    browser: context.browser() as Browser,
    newPage: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a screenshot of `page` as .cache/screenshots/<name>.png and prints its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  process.stdout.write(`screenshot: ${path}\n`);
  return path;
}

/** A third-party site on its own origin: serves `html` at every path with the given CSP. */
export async function thirdPartySite(html: () => string, csp: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    response.end(html());
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  // `localhost`, not 127.0.0.1 where the node listens: another origin
  return { origin: `http://localhost:${port}`, close: () => new Promise<void>((done) => server.close(() => done())) };
}
