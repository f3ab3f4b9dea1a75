import { describe, expect, it } from 'vitest';
import { REQUEST_CHANNELS, STREAM_CHANNELS, isRequestChannel, isStreamChannel, requests, streams } from '../../../shared/contract.ts';
import { resultSchema } from '../../../shared/result-schema.ts';
import { ContextListSchema } from '../../../shared/model.ts';

describe('contract', () => {
  it('names every channel domain:verb', () => {
    for (const name of [...REQUEST_CHANNELS, ...STREAM_CHANNELS]) expect(name).toMatch(/^[a-z]+:[a-z]+(-[a-z]+)*$/);
  });

  it('gives every request a request and a response schema, and every stream a payload schema', () => {
    for (const channel of REQUEST_CHANNELS) {
      expect(typeof requests[channel].request.safeParse).toBe('function');
      expect(typeof requests[channel].response.safeParse).toBe('function');
    }
    for (const stream of STREAM_CHANNELS) expect(typeof streams[stream].safeParse).toBe('function');
  });

  it('does not mistake inherited object keys for channels', () => {
    for (const name of ['toString', '__proto__', 'hasOwnProperty', 'constructor']) {
      expect(isRequestChannel(name)).toBe(false);
      expect(isStreamChannel(name)).toBe(false);
    }
  });

  it('checks Results that arrive over a wire', () => {
    const schema = resultSchema(ContextListSchema);
    expect(schema.safeParse({ ok: true, value: { contexts: [], selected: null, kubeconfigCurrent: null, sources: [] } }).success).toBe(true);
    expect(schema.safeParse({ ok: false, error: { code: 'forbidden', message: 'no' } }).success).toBe(true);
    expect(schema.safeParse({ ok: false, error: { code: 'made-up', message: 'no' } }).success).toBe(false);
    expect(schema.safeParse({ ok: true, value: { contexts: 'x' } }).success).toBe(false);
  });
});
