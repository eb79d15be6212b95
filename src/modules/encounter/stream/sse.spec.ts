import { formatSseMessage, InvalidLastEventIdError, resumePosition, SSE_HEARTBEAT } from './sse';

describe('SSE wire format', () => {
  it('formats id, event and one data line with the per-user topic', () => {
    const text = formatSseMessage({
      position: 42,
      topic: 'com.svc.encounter.match',
      userTopic: 'com.svc.encounter.match.u1',
      payload: { id: 'match_1', note: 'line\nbreak' },
      at: '2026-04-10T00:00:00.000Z',
    });
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['id: 42', 'event: com.svc.encounter.match']);
    expect(lines[2].startsWith('data: ')).toBe(true);
    expect(JSON.parse(lines[2].slice(6))).toEqual({
      topic: 'com.svc.encounter.match.u1',
      payload: { id: 'match_1', note: 'line\nbreak' },
      at: '2026-04-10T00:00:00.000Z',
    });
    expect(text.endsWith('\n\n')).toBe(true);
    expect(lines).toHaveLength(5); // a newline inside the payload stays escaped in the JSON
  });

  it('has a heartbeat comment', () => {
    expect(SSE_HEARTBEAT).toBe(': heartbeat\n\n');
  });

  it('resumes from the header first, then the query; nothing means from now on', () => {
    expect(resumePosition('17', '3')).toBe(17);
    expect(resumePosition(undefined, '3')).toBe(3);
    expect(resumePosition('', '0')).toBe(0);
    expect(resumePosition(undefined, undefined)).toBeNull();
    expect(resumePosition(' 8 ', undefined)).toBe(8);
  });

  it('refuses anything but a non-negative integer', () => {
    for (const bad of ['-1', '1.5', 'abc', '1e3', '9999999999999999', { $gt: 1 }]) {
      expect(() => resumePosition(bad, undefined)).toThrow(InvalidLastEventIdError);
      expect(() => resumePosition(undefined, bad)).toThrow(InvalidLastEventIdError);
    }
  });
});
