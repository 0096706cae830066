/**
 * File key validation, shared by every backend. A bad key is a programming error (keys are built
 * by the service from ids), so it throws a plain Error rather than an AppError.
 */

const MAX_KEY_LENGTH = 512;
/** Segments of [A-Za-z0-9._-] joined by single slashes: no leading/trailing/double slash. */
const KEY_SHAPE = /^[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/;

/**
 * Throws unless `key` is a safe relative path. Segments may not start with a dot: that rules out
 * `.` and `..` (no escaping the root) and reserves dot-names for the folder store's temp and
 * sidecar files, so no key can ever collide with them.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key.length > MAX_KEY_LENGTH || !KEY_SHAPE.test(key)) {
    throw new Error(`Invalid file key: ${JSON.stringify(String(key).slice(0, 80))}`);
  }
  if (key.split('/').some((segment) => segment.startsWith('.'))) {
    throw new Error(`Invalid file key (dot segment): ${JSON.stringify(key.slice(0, 80))}`);
  }
}

export function isValidKey(key: string): boolean {
  try {
    assertValidKey(key);
    return true;
  } catch {
    return false;
  }
}

/** Normalises an S3 key prefix to `''` or `a/b/`, validating it like a key. */
export function normalisePrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (trimmed === '') return '';
  assertValidKey(trimmed);
  return `${trimmed}/`;
}

/** Throws unless `prefix` is '' or a valid key, optionally with one trailing slash (`renders/`). */
export function assertValidPrefix(prefix: string): void {
  if (prefix === '') return;
  const bare = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
  if (bare === '') throw new Error('Invalid file key prefix: "/"');
  assertValidKey(bare);
}
