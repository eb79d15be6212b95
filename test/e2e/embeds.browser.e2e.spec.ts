/**
 * The embedding interfaces in a real browser (headless Chromium, docs/api.md
 * "Embedding"): the iframe page chats with an agent as the token's user, the
 * plugin page registers a guest when it mounts and chats by text where the
 * browser has no speech recognition, and the widget, loaded by a site on
 * another origin under a strict CSP of its own, opens, sends, receives,
 * fires its events and honours position, theme and greeting. Each test saves
 * a screenshot under .cache/screenshots/.
 */
import type { Page } from 'playwright-core';
import { conversationStreamId } from '../../src/aggregates/chat/chat.events';
import { EVENT_STORE, type EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { startTestApp, type TestApp, uniqueName } from '../support/app';
import { describeWithChromium, type HeadlessChromium, launchChromium, screenshot, thirdPartySite } from '../support/browser';

jest.setTimeout(90_000);

const ADMIN = uniqueName('admin');

describeWithChromium('the embeds in headless Chromium', () => {
  let t: TestApp;
  let chromium: HeadlessChromium;
  let site: { origin: string; close(): Promise<void> };
  let hostPage = '';
  let page: Page;

  beforeAll(async () => {
    t = await startTestApp({ CHAT_RATE_LIMIT_PER_MINUTE: '1000', SVC_ADMIN_USERS: ADMIN });
    chromium = await launchChromium();
    site = await thirdPartySite(
      () => hostPage,
      // a strict host: scripts from itself and the node, no style sheets at all, calls and frames to the node only
      `default-src 'none'; script-src 'unsafe-inline' ${t.url}; style-src 'none'; connect-src ${t.url}; frame-src ${t.url}; img-src data:`,
    );
  });
  afterAll(async () => {
    await chromium?.close();
    await site?.close();
    await t?.close();
  });
  beforeEach(async () => {
    page = await chromium.newPage();
  });
  afterEach(async () => {
    await page.close();
  });

  async function account(): Promise<{ token: string; id: string }> {
    const username = uniqueName('web');
    const res = await t.request('POST', '/api/social/register', { body: { username, email: `${username}@example.com`, password: 'correct horse battery' } });
    return { token: res.body.data.token, id: res.body.data.id };
  }
  const conversation = (userId: string, promptId: string) => t.app.get<EventStore>(EVENT_STORE).readStream(conversationStreamId(userId, promptId));

  describe('the iframe chat page, framed by the widget object', () => {
    it('given a signed-in visitor, when they chat in the frame, then the agent answers as that user and the object relays the message', async () => {
      const { token, id } = await account();
      hostPage = `<!doctype html><body><div id="chat"></div>
<script src="${t.url}/embed/widget-object.js"></script>
<script>
  window.events = [];
  var chat = new AgentWidgetObject({ agentName: 'Helper Bot', authToken: ${JSON.stringify(token)}, userId: ${JSON.stringify(id)}, emailAddress: 'ada@example.com', container: '#chat' });
  ['open', 'close', 'message', 'ready'].forEach(function (name) { chat.on(name, function (data) { window.events.push({ name: name, data: data || null }); }); });
</script></body>`;
      await page.goto(`${site.origin}/`);
      const frame = page.frameLocator('iframe');
      await frame.locator('body[data-ready="true"]').waitFor();
      await expect(frame.locator('#status').textContent()).resolves.toBe('Chatting as ada@example.com');
      await frame.locator('#prompt').fill('Convert 10 km to miles');
      await frame.locator('#prompt').press('Enter');
      await frame.locator('.msg.agent').waitFor();
      await expect(frame.locator('.msg.agent').textContent()).resolves.toContain('Creation Mode');
      await page.waitForFunction(() => (globalThis as any).events.some((e: { name: string }) => e.name === 'message'));
      const events = await page.evaluate(() => (globalThis as any).events);
      expect(events.map((e: { name: string }) => e.name)).toEqual(['open', 'ready', 'message']);
      expect(events[2].data.text).toContain('Creation Mode');
      expect((await conversation(id, 'helper-bot')).length).toBeGreaterThan(0);
      await screenshot(page, 'embed-iframe-chat');
    });

    it('given a forged token, when the frame opens, then it says the link is invalid', async () => {
      hostPage = `<!doctype html><body><iframe src="${t.url}/agents/helper?embed=true&token=forged.token.value" allow="microphone; camera; autoplay"></iframe></body>`;
      await page.goto(`${site.origin}/`);
      const alert = page.frameLocator('iframe').locator('[role="alert"]');
      await expect(alert.textContent()).resolves.toContain('invalid or has expired');
      await screenshot(page, 'embed-iframe-refused');
    });
  });

  describe('the plugin page', () => {
    it('given a visitor, when the page mounts, then a guest is registered and the page is ready', async () => {
      const registered = page.waitForResponse((res) => res.url().endsWith('/api/social/auth/guest-register'));
      await page.goto(`${t.url}/agents/voice-helper?plugin=1`);
      expect((await registered).status()).toBe(201);
      await page.locator('body[data-ready="true"]').waitFor();
      await screenshot(page, 'embed-plugin');
    });

    it('given a browser without speech recognition, when the visitor types instead, then the agent answers', async () => {
      await page.addInitScript(() => {
        delete (globalThis as any).SpeechRecognition;
        delete (globalThis as any).webkitSpeechRecognition;
      });
      await page.goto(`${t.url}/agents/voice-helper?plugin=1`);
      await page.locator('body[data-voice="unavailable"][data-ready="true"]').waitFor();
      expect(await page.locator('#mic').isHidden()).toBe(true);
      await page.locator('#prompt').fill('hello');
      await page.locator('#composer button').click();
      await expect(page.locator('.msg.agent').textContent()).resolves.toContain('Creation Mode');
      await screenshot(page, 'embed-plugin-text-fallback');
    });

    it('given the node’s text-to-speech tool running, when the agent answers, then the page has the node speak the reply', async () => {
      const admin = await t.request('POST', '/api/social/register', { body: { username: ADMIN, email: `${ADMIN}@example.com`, password: 'correct horse battery' } });
      for (const action of ['setup', 'start']) expect((await t.request('POST', `/api/tools/tts/${action}`, { token: admin.body.data.token })).status).toBe(200);
      await page.addInitScript(() => {
        delete (globalThis as any).SpeechRecognition;
        delete (globalThis as any).webkitSpeechRecognition;
      });
      await page.goto(`${t.url}/agents/voice-helper?plugin=1`);
      await page.locator('body[data-ready="true"]').waitFor();
      const spoken = page.waitForResponse((res) => res.url().endsWith('/api/tools/tts/speak'));
      await page.locator('#prompt').fill('hello');
      await page.locator('#composer button').click();
      const speech = await spoken;
      expect(speech.status()).toBe(200);
      expect(speech.headers()['content-type']).toBe('audio/wav');
      expect(Number(speech.headers()['content-length'])).toBeGreaterThan(10_000); // a second of 22 kHz speech, not an error
      // the page played it (or, where the browser refuses autoplay, fell back to its own voice)
      await page.locator('body[data-speech]').waitFor({ state: 'attached' });
    });
  });

  describe('the widget on another site', () => {
    let apiKey: string;

    beforeAll(async () => {
      const { token } = await account();
      const res = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'site', tier: 'free', allowed_origins: [site.origin] } });
      apiKey = res.body.data.key;
    });

    function widgetPage(options: Record<string, unknown>): string {
      return `<!doctype html><body><h1>A shop</h1>
<script src="${t.url}/widget.js"></script>
<script>
  window.events = [];
  window.widget = AgentWidget.init(${JSON.stringify({ apiKey, ...options })});
  ['open', 'close', 'message'].forEach(function (name) { widget.on(name, function (data) { window.events.push({ name: name, data: data || null }); }); });
</script></body>`;
    }
    const eventNames = () => page.evaluate(() => (globalThis as any).events.map((e: { name: string }) => e.name));

    it('given a site with the widget, when a visitor opens it, sends and closes, then it answers and fires open, message and close', async () => {
      hostPage = widgetPage({ agentName: 'Shop Assistant' });
      await page.goto(`${site.origin}/`);
      await page.locator('[data-launcher]').click();
      expect(await page.locator('[data-panel]').isVisible()).toBe(true);
      await page.locator('[data-input]').fill('Convert 10 km to miles');
      await page.locator('[data-input]').press('Enter');
      await page.locator('[data-role="agent"]').nth(1).waitFor();
      await expect(page.locator('[data-role="agent"]').nth(1).textContent()).resolves.toContain('Creation Mode');
      await screenshot(page, 'widget-open');
      await page.locator('[data-close]').click();
      expect(await page.locator('[data-panel]').isVisible()).toBe(false);
      expect(await eventNames()).toEqual(['open', 'message', 'close']);
      const message = await page.evaluate(() => (globalThis as any).events[1].data);
      expect(message).toEqual({ text: expect.stringContaining('Creation Mode') });
    });

    it('given position, theme and greeting, then the widget sits in that corner, in those colours, greeting first', async () => {
      hostPage = widgetPage({
        position: 'top-left',
        greeting: 'Welcome to the shop!',
        placeholder: 'Ask about an order',
        theme: { primary: 'rgb(200, 30, 40)', background: 'rgb(10, 20, 30)', text: 'rgb(240, 240, 240)', borderRadius: '4px' },
      });
      await page.goto(`${site.origin}/`);
      const launcher = await page.locator('[data-launcher]').boundingBox();
      expect(launcher).toMatchObject({ x: 20, y: 20 });
      await page.locator('[data-launcher]').click();
      const panel = page.locator('[data-panel]');
      expect(await panel.evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor)).toBe('rgb(10, 20, 30)');
      expect(await panel.evaluate((el) => (globalThis as any).getComputedStyle(el).borderRadius)).toBe('4px');
      expect(await page.locator('[data-launcher]').evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor)).toBe('rgb(200, 30, 40)');
      await expect(page.locator('[data-role="agent"]').first().textContent()).resolves.toBe('Welcome to the shop!');
      expect(await page.locator('[data-input]').getAttribute('placeholder')).toBe('Ask about an order');
      await screenshot(page, 'widget-top-left-themed');
    });

    it('given the default position, then the widget sits bottom-right', async () => {
      hostPage = widgetPage({});
      await page.goto(`${site.origin}/`);
      const box = (await page.locator('[data-launcher]').boundingBox())!;
      expect(box.x + box.width).toBe(1000 - 20);
      expect(box.y + box.height).toBe(700 - 20);
    });

    it('given a reply with a video_url, then it renders as a player with a download link; a script URL renders as text only', async () => {
      hostPage = widgetPage({});
      await page.goto(`${site.origin}/`);
      const rendered = await page.evaluate(() => {
        const doc = (globalThis as any).document;
        const list = doc.createElement('div');
        doc.body.appendChild(list);
        const video = (globalThis as any).AgentWidget.renderMessage(list, 'agent', { text: 'Your clip', video_url: 'https://cdn.example/clip.mp4' });
        const hostile = (globalThis as any).AgentWidget.renderMessage(list, 'agent', { text: 'x', video_url: 'javascript:alert(1)' });
        return {
          text: video.firstChild.textContent,
          src: video.querySelector('video')?.getAttribute('src'),
          controls: video.querySelector('video')?.hasAttribute('controls'),
          download: video.querySelector('a[download]')?.getAttribute('href'),
          hostile: hostile.querySelectorAll('video, a').length,
        };
      });
      expect(rendered).toEqual({ text: 'Your clip', src: 'https://cdn.example/clip.mp4', controls: true, download: 'https://cdn.example/clip.mp4', hostile: 0 });
    });

    it('given a key restricted to another site, when the widget sends, then it shows the refusal', async () => {
      const { token } = await account();
      const other = await t.request('POST', '/api/v1/intelligence/keys', { token, body: { name: 'elsewhere', tier: 'free', allowed_origins: ['https://elsewhere.example'] } });
      hostPage = widgetPage({ apiKey: other.body.data.key });
      await page.goto(`${site.origin}/`);
      await page.locator('[data-launcher]').click();
      await page.locator('[data-input]').fill('hi');
      await page.locator('[data-input]').press('Enter');
      await expect(page.locator('[data-role="error"]').textContent()).resolves.toBe('API key not allowed from this origin');
    });
  });
});
