/**
 * Refuses text holding a NUL character (U+0000) anywhere in a request's path parameters, query or
 * parsed body, before any route sees it: PostgreSQL's text cannot store it (it answers an error
 * that would surface as a 500), SQLite would keep it, so the two databases would disagree. No
 * field of the API has a use for it. Raw bodies (uploads) are bytes and pass untouched.
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../core/errors.ts';

const MAX_DEPTH = 64;

/** The path (`body.name`, `query.q`) of the first string holding U+0000, or null. */
export function nulPath(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = nulPath(item, `${path}[${index}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}.${key.replaceAll('\u0000', '\\0')}`;
    const found = nulPath(item, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

const refuse = (path: string) =>
  new AppError('VALIDATION_FAILED', 'Text may not contain the NUL character (U+0000).', [
    { path, message: 'contains U+0000' },
  ]);

/**
 * Installed before authentication, which reads path parameters (a workspace id, an embed id).
 * Callback hooks, not async ones: they run on every request and have nothing to wait for.
 */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const found = nulPath(request.params, 'params') ?? nulPath(request.query, 'query');
    done(found ? refuse(found) : undefined);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    const found = nulPath(request.body, 'body');
    done(found ? refuse(found) : undefined);
  });
}
