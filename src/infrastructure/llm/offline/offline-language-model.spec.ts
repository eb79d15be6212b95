import { LlmAbortedError, type LlmDelta, type LlmRequest, OFFLINE_DISCLOSURE, type OfflineToolbox, type StepAttempt } from '../llm.port';
import { decodeDataUrl, describeImageBytes, formatImageInfo } from './image-info';
import { OfflineLanguageModel } from './offline-language-model';

/**
 * A stand-in for the agent's tools (src/modules/chat/tools, whose spec runs
 * the engine with the real ones): each line of the prompt is a step; "tool:
 * result" is done by that tool, "tool! error" fails in it, anything else needs
 * a model. It remembers the prompts it was given.
 */
class FakeToolbox implements OfflineToolbox {
  readonly prompts: string[] = [];
  attempt(prompt: string): StepAttempt[] {
    this.prompts.push(prompt);
    return prompt
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((text, index) => {
        const done = /^(\w+): (.*)$/.exec(text);
        const failed = /^(\w+)! (.*)$/.exec(text);
        if (done) return { step: { index, text, tool: done[1] }, outcome: { kind: 'done', result: done[2] } };
        if (failed) return { step: { index, text, tool: failed[1] }, outcome: { kind: 'failed', error: failed[2] } };
        return { step: { index, text, tool: null }, outcome: { kind: 'needs-model' } };
      });
  }
}

const model = (toolbox: OfflineToolbox = new FakeToolbox()) => new OfflineLanguageModel(toolbox);
const ask = (prompt: string, extra: Partial<LlmRequest> = {}) => model().complete({ messages: [{ role: 'user', content: prompt }], ...extra });

/** A 2×3 PNG's signature and IHDR (enough for type and size) and a whole 1×1 GIF. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 2, 0, 0, 0, 3, 8, 6, 0, 0, 0]),
]);
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

describe('OfflineLanguageModel', () => {
  it('says first that no language model is configured, and marks itself offline', async () => {
    const completion = await ask('Write a poem about the sea');
    expect(completion.content.startsWith(OFFLINE_DISCLOSURE)).toBe(true);
    expect(OFFLINE_DISCLOSURE).toBe('No language model is configured on this node (offline engine).');
    expect(completion.content).toContain('Nothing below was written by a language model.');
    expect(completion).toMatchObject({ source: 'offline', model: 'offline', finishReason: 'stop' });
    const llm = model();
    expect([llm.kind, llm.defaultModel]).toEqual(['offline', 'offline']);
  });

  it('lists the steps with each tool result or the need for a model', async () => {
    const { content } = await ask('arithmetic: 2 * (3 + 4) = 14\nconvert_units: 5 km = 3.10686 mi\nWrite a sonnet\narithmetic! division by zero');
    expect(content).toBe(
      [
        OFFLINE_DISCLOSURE,
        'Your request has 4 steps; built-in tools did 2 of them. Nothing below was written by a language model.',
        '',
        '1. arithmetic: 2 * (3 + 4) = 14',
        '   → arithmetic: 2 * (3 + 4) = 14',
        '2. convert_units: 5 km = 3.10686 mi',
        '   → convert_units: 5 km = 3.10686 mi',
        '3. Write a sonnet',
        '   → needs a language model (no built-in tool can do this step)',
        '4. arithmetic! division by zero',
        '   → arithmetic: could not be done (division by zero)',
      ].join('\n'),
    );
  });

  it('hands the tools the last user message, and counts tokens of the whole prompt', async () => {
    const toolbox = new FakeToolbox();
    const completion = await model(toolbox).complete({
      messages: [
        { role: 'system', content: 'You are helpful.' },
        { role: 'user', content: 'reverse: cba' },
        { role: 'assistant', content: 'cba' },
        { role: 'user', content: 'uppercase: ABC' },
      ],
    });
    expect(toolbox.prompts).toEqual(['uppercase: ABC']);
    expect(completion.content).toContain('uppercase: ABC');
    expect(completion.content).not.toContain('reverse');
    expect(completion.usage.promptTokens).toBeGreaterThan(0);
    expect(completion.usage.completionTokens).toBe(Math.ceil(completion.content.length / 4));
  });

  it('ignores a per-call model: it is still offline', async () => {
    expect(await ask('compute 1+1', { model: 'gpt-4o' })).toMatchObject({ model: 'offline', source: 'offline' });
  });

  it('answers an empty request plainly', async () => {
    const { content } = await model().complete({ messages: [{ role: 'system', content: 'x' }] });
    expect(content).toBe(`${OFFLINE_DISCLOSURE}\nThe request has no user message to work on.`);
  });

  it('is deterministic', async () => {
    const prompt = 'count: 3 words\nwrite a limerick';
    const [a, b] = await Promise.all([ask(prompt), model().complete({ messages: [{ role: 'user', content: prompt }] })]);
    expect(a).toEqual(b);
  });

  it('streams the same content in a few chunks, then done with the finish reason and usage of complete()', async () => {
    const request: LlmRequest = { messages: [{ role: 'user', content: 'arithmetic: 2 + 2 = 4\ntell a joke' }] };
    const deltas: LlmDelta[] = [];
    for await (const delta of model().stream(request)) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(2);
    const completion = await model().complete(request);
    expect(deltas[deltas.length - 1]).toEqual({ content: '', done: true, finishReason: 'stop', usage: completion.usage });
    expect(deltas.slice(0, -1).every((d) => !d.done)).toBe(true);
    expect(deltas.map((d) => d.content).join('')).toBe(completion.content);
  });

  it('refuses an aborted call', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(ask('compute 1+1', { signal: controller.signal })).rejects.toBeInstanceOf(LlmAbortedError);
  });

  it('answers that vision needs a model, with what it can read of a data: URL', async () => {
    const { content } = await ask('what is in this picture?', {
      images: [{ url: `data:image/png;base64,${PNG.toString('base64')}` }, { url: 'https://example.test/cat.jpg' }],
    });
    expect(content).toBe(
      [
        OFFLINE_DISCLOSURE,
        'Vision needs a language model: the 2 images were not analysed.',
        'Image 1: image/png, 29 bytes, 2×3',
        'Image 2: https://example.test/cat.jpg (not fetched: the offline engine reads only data: URLs)',
      ].join('\n'),
    );
  });
});

describe('image-info', () => {
  it('reads type, byte size and dimensions from the bytes', () => {
    expect(describeImageBytes(PNG)).toEqual({ type: 'image/png', bytes: 29, width: 2, height: 3 });
    expect(formatImageInfo(describeImageBytes(GIF))).toBe('image/gif, 43 bytes, 1×1');
    expect(describeImageBytes(Buffer.from('not an image'), 'image/bmp')).toEqual({ type: 'image/bmp', bytes: 12, width: null, height: null });
  });

  it('reads a JPEG size from its start-of-frame marker', () => {
    // SOI, an APP0 segment of length 4, then SOF0: length 11, precision 8, height, width, 3 components
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 3, 0, 0, 0, 0]);
    jpeg.writeUInt16BE(480, 13);
    jpeg.writeUInt16BE(640, 15);
    expect(describeImageBytes(jpeg)).toMatchObject({ type: 'image/jpeg', width: 640, height: 480 });
  });

  it('decodes base64 and percent-encoded data: URLs, and nothing else', () => {
    expect(decodeDataUrl('data:text/plain,a%20b')).toEqual({ declaredType: 'text/plain', bytes: Buffer.from('a b') });
    expect(decodeDataUrl(`data:image/gif;base64,${GIF.toString('base64')}`)?.bytes.equals(GIF)).toBe(true);
    expect(decodeDataUrl('data:,%E0%A4%A')).toBeNull();
    expect(decodeDataUrl('https://example.test/a.png')).toBeNull();
  });
});
