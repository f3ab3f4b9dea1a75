import { describe, expect, it } from 'vitest';
import { allowedHostHeader, allowedOrigin, createToken, isLoopbackHost, tokenMatches } from '../../../electron/web/token.ts';

describe('token check', () => {
  it('makes a fresh, URL-safe token each run', () => {
    const a = createToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(createToken()).not.toBe(a);
  });

  it('accepts only the exact token', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    for (const given of ['abd', 'ab', 'abcd', '', null, undefined, 'ABC']) expect(tokenMatches('abc', given)).toBe(false);
  });

  it('knows loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', '192.168.1.1', 'example.com', '127.0.0.1.nip.io', '']) expect(isLoopbackHost(host)).toBe(false);
  });

  it('allows Host headers naming loopback on our port only', () => {
    expect(allowedHostHeader('127.0.0.1:8080', 8080)).toBe(true);
    expect(allowedHostHeader('localhost:8080', 8080)).toBe(true);
    expect(allowedHostHeader('[::1]:8080', 8080)).toBe(true);
    expect(allowedHostHeader('127.0.0.1:8081', 8080)).toBe(false);
    expect(allowedHostHeader('attacker.example:8080', 8080)).toBe(false);
    expect(allowedHostHeader(undefined, 8080)).toBe(false);
  });

  it('allows only our own loopback origin', () => {
    expect(allowedOrigin('http://127.0.0.1:8080', 8080)).toBe(true);
    expect(allowedOrigin('http://localhost:8080', 8080)).toBe(true);
    expect(allowedOrigin('https://127.0.0.1:8080', 8080)).toBe(false);
    expect(allowedOrigin('http://127.0.0.1:9999', 8080)).toBe(false);
    expect(allowedOrigin('null', 8080)).toBe(false);
    expect(allowedOrigin('file://', 8080)).toBe(false);
    expect(allowedOrigin(undefined, 8080)).toBe(false);
  });
});
