/**
 * The repository stands alone: a stranger's clone has nothing beside it, so no tracked file may read
 * or name a path outside the repository (a sibling folder, a path of the machines it was built on),
 * and comments cite the project's own docs. `.ci/run` is the one exception the rule allows: CI may
 * look for a sibling folder of its own, and the project must pass without one.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const isCheckout = existsSync(join(root, '.git'));

/** Patterns that reach outside: a parent of the repository, our machines' absolute paths, a
 * reference document that only our machines have. */
const OUTSIDE = [
  String.raw`\.\./shared`,
  String.raw`(^|[^.\w])/work/`,
  'CONTRACT\\.md',
  'shared/(examples|seed|checks|hooks)',
];

describe('the repository stands alone', () => {
  it.skipIf(!isCheckout)('no tracked file names a path outside the repository (a git checkout only)', () => {
    const grep = spawnSync(
      'git',
      ['grep', '-nIE', OUTSIDE.join('|'), '--', '.', ':!.ci', ':!test/self-contained.test.ts'],
      { cwd: root, encoding: 'utf8' },
    );
    // git grep exits 1 when nothing matches.
    expect(grep.status === 1 ? '' : grep.stdout || grep.stderr).toBe('');
  });
});
