import { expectReaderAgreesWithSchema } from '../../../test/support/schema-agreement';
import { PROMPT_MAX_CHARS } from '../chat/chat.requests';
import { CHAT_COMPLETION_BODY_SCHEMA, chatCompletionBody, MAX_MESSAGES } from './openai.requests';

const user = { role: 'user', content: 'hi' };
const image = (url: string) => ({ type: 'image_url', image_url: { url } });

describe('the body of POST /v1/chat/completions', () => {
  it('given generated bodies, then the reader accepts exactly what CHAT_COMPLETION_BODY_SCHEMA accepts', () => {
    expectReaderAgreesWithSchema(CHAT_COMPLETION_BODY_SCHEMA, chatCompletionBody, {
      valid: { model: 'agent-platform-1', messages: [user] },
      candidates: {
        model: ['x'.repeat(256), 'x'.repeat(257), '\t'],
        messages: [
          [{ role: 'system', content: 'be brief' }, user],
          [{ role: 'developer', content: 'be brief' }, { role: 'assistant', content: '' }, user],
          [{ role: 'tool', content: 'x' }],
          [{ role: 'user' }],
          [{ role: 'user', content: null }],
          [{ role: 'user', content: 'x'.repeat(PROMPT_MAX_CHARS + 1) }],
          [{ role: 'user', content: [{ type: 'text', text: 'what is it?' }, image('https://example.com/a.png')] }],
          [{ role: 'user', content: [image('data:image/png;base64,AAAA')] }],
          [{ role: 'user', content: [image('ftp://x')] }],
          [{ role: 'user', content: [{ type: 'image_url', image_url: 'https://example.com/a.png' }] }],
          [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }],
          [{ role: 'user', content: [{ type: 'text', text: 3 }] }],
          [{ role: 'assistant', content: [image('https://example.com/a.png')] }],
          [{ role: 'assistant', content: [{ type: 'text', text: 'ok' }] }],
          [{ role: 'user', content: Array.from({ length: 17 }, () => ({ type: 'text', text: 'x' })) }],
          Array.from({ length: MAX_MESSAGES }, () => user),
          Array.from({ length: MAX_MESSAGES + 1 }, () => user),
          [null],
        ],
        stream_options: [{ include_usage: true }, { include_usage: 'yes' }, { include_usage: null }],
        temperature: [0, 2, 2.5, 0.7],
        max_tokens: [1, 1_000_000, 1_000_001, 0, 10.5],
        max_completion_tokens: [1, 1_000_000, 1_000_001, 0],
        n: [1, 2],
      },
    });
  });

  it('given text parts and images in two user messages, then the texts join and every image goes to the model', () => {
    const body = chatCompletionBody({
      model: 'm',
      messages: [
        { role: 'developer', content: 'be brief' },
        { role: 'user', content: [image('https://example.com/1.png')] },
        { role: 'user', content: [{ type: 'text', text: 'compare' }, { type: 'text', text: 'them' }, image(' https://example.com/2.png ')] },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 50,
      max_completion_tokens: 20,
    });
    expect(body).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: '' },
        { role: 'user', content: 'compare\nthem' },
      ],
      images: [{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }],
      stream: true,
      includeUsage: true,
      maxTokens: 20,
    });
  });

  it('given a tool message, then the refusal names the field and the roles it takes', () => {
    expect(() => chatCompletionBody({ model: 'm', messages: [{ role: 'tool', content: 'x' }] })).toThrow('messages[0].role must be one of system, developer, user, assistant');
  });
});
