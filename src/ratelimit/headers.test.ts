/** RateLimit-* and Retry-After headers, exactly as sent on render responses. */
import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './headers.ts';

describe('rateLimitHeaders', () => {
  it('describes an admitted request without Retry-After', () => {
    const headers = rateLimitHeaders({
      allowed: true,
      limit: 600,
      remaining: 599,
      resetSeconds: 1,
      retryAfterSeconds: 0,
    });
    expect(headers).toEqual({
      'RateLimit-Limit': '600',
      'RateLimit-Remaining': '599',
      'RateLimit-Reset': '1',
      'RateLimit-Policy': '600;w=60',
    });
  });

  it('adds Retry-After in whole seconds, at least 1, to a refusal', () => {
    const refused = { allowed: false, limit: 5, remaining: 0, resetSeconds: 60, retryAfterSeconds: 12 };
    expect(rateLimitHeaders(refused)).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '60',
      'RateLimit-Policy': '5;w=60',
      'Retry-After': '12',
    });
    expect(rateLimitHeaders({ ...refused, retryAfterSeconds: 0 })['Retry-After']).toBe('1');
    expect(rateLimitHeaders({ ...refused, retryAfterSeconds: 2.2 })['Retry-After']).toBe('3');
  });
});
