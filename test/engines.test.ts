/**
 * Every installed package runs inside the Node versions it declares (`engines.node`), on the Node
 * running this test (CI runs the suite on Node 20, 22 and 24) and on each line the project supports:
 * npm only warns about a mismatch at install, and a package that needs a newer Node breaks later,
 * sometimes as a crash. docs/decisions.md, "Node versions", says how a mismatch is fixed (an older
 * release or an npm override) rather than ignored. One package is installed for newer Nodes only:
 * better-sqlite3 13 (as `better-sqlite3-napi`), which src/store/sqlite.ts loads on Node 22 and newer.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { SQLITE_DRIVER } from '../src/store/sqlite.ts';

/** Installed for Node 22 and 24 only: src/store/sqlite.ts never loads it on Node 20 (its engines). */
const NODE22_DRIVER = 'better-sqlite3-napi';

const root = new URL('..', import.meta.url).pathname;
const SUPPORTED = ['20.19.0', '22.12.0', '24.0.0'];

interface Installed {
  path: string;
  name: string;
  version: string;
  node: string | undefined;
}

function installed(dir: string): Installed[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || !(entry.isDirectory() || entry.isSymbolicLink())) return [];
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) return installed(path);
    const manifest = join(path, 'package.json');
    if (!existsSync(manifest)) return [];
    const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
    const self = { path, name: pkg.name, version: pkg.version, node: pkg.engines?.node };
    // A workspace link's own dependencies are hoisted to the root; nested ones are real copies.
    return entry.isSymbolicLink() ? [self] : [self, ...installed(join(path, 'node_modules'))];
  });
}

describe('dependencies and Node versions', () => {
  const packages = installed(join(root, 'node_modules'));

  it('finds the installed packages', () => {
    expect(packages.length).toBeGreaterThan(100);
  });

  it(`every package declaring engines.node accepts the running Node (${process.version})`, () => {
    const outside = packages
      .filter((p) => p.node && !semver.satisfies(process.version, p.node, { includePrerelease: true }))
      .filter((p) => !(p.path.endsWith(`node_modules/${NODE22_DRIVER}`) && SQLITE_DRIVER !== NODE22_DRIVER))
      .map((p) => `${p.name}@${p.version} needs node ${p.node} (${p.path})`);
    expect(outside).toEqual([]);
  });

  it(`every package accepts each supported line (${SUPPORTED.join(', ')})`, () => {
    const outside = packages.flatMap((p) =>
      SUPPORTED.filter(
        (v) =>
          p.node &&
          !semver.satisfies(v, p.node) &&
          !(p.name === 'better-sqlite3' && p.path.endsWith(NODE22_DRIVER) && semver.major(v) < 22),
      ).map((v) => `${p.name}@${p.version} needs node ${p.node}, not ${v}`),
    );
    expect(outside).toEqual([]);
  });

  it('the SQLite driver loaded is one whose engines accept the running Node', () => {
    const loaded = packages.find((p) => p.path.endsWith(`node_modules/${SQLITE_DRIVER}`));
    expect(loaded?.name).toBe('better-sqlite3');
    expect(semver.satisfies(process.version, loaded?.node ?? '*')).toBe(true);
    // The Node 22+ driver (13, Node-API) is installed everywhere but loaded only where it may run.
    const node22 = packages.find((p) => p.path.endsWith(`node_modules/${NODE22_DRIVER}`));
    expect(semver.satisfies('20.19.0', node22?.node ?? '*')).toBe(false);
    expect(SQLITE_DRIVER === NODE22_DRIVER).toBe(semver.major(process.version) >= 22);
  });

  it("the project's own engines name the oldest supported line", () => {
    const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node;
    expect(semver.minVersion(own)?.version).toBe(SUPPORTED[0]);
    for (const v of SUPPORTED) expect(semver.satisfies(v, own)).toBe(true);
  });
});
