#!/usr/bin/env node
// The registry mirror these machines use lacks some other-platform builds of @napi-rs/canvas at
// the version we use, so `npm install` leaves them out of package-lock.json and `npm ci` then
// refuses the lock. This adds lock entries for the missing optional platform packages (os/cpu
// set, so npm never downloads them on a machine of another platform). Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const platforms = {
  'android-arm64': [['android'], ['arm64']],
  'darwin-arm64': [['darwin'], ['arm64']],
  'darwin-x64': [['darwin'], ['x64']],
  'linux-arm-gnueabihf': [['linux'], ['arm']],
  'linux-arm64-gnu': [['linux'], ['arm64'], ['glibc']],
  'linux-arm64-musl': [['linux'], ['arm64'], ['musl']],
  'linux-riscv64-gnu': [['linux'], ['riscv64'], ['glibc']],
  'linux-x64-gnu': [['linux'], ['x64'], ['glibc']],
  'linux-x64-musl': [['linux'], ['x64'], ['musl']],
  'win32-arm64-msvc': [['win32'], ['arm64']],
  'win32-x64-msvc': [['win32'], ['x64']],
};
/** os/cpu/libc of an optional platform package from its name (`…-linux-arm64-musl`), or null. */
const OSES = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'win32',
  'openbsd',
  'netbsd',
  'openharmony',
  'sunos',
  'aix',
];
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];
function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OSES.includes(t));
  const cpu = tokens.find((t) => CPUS.includes(t));
  if (!os || !cpu) return null;
  const libc =
    tokens.includes('musl') || tokens.includes('musleabihf') ? 'musl' : os === 'linux' ? 'glibc' : null;
  return [[os], [cpu], ...(libc ? [[libc]] : [])];
}

const added = [];
function addMissing(name, version, known) {
  const key = `node_modules/${name}`;
  const platform = known ?? platformOf(name);
  if (lock.packages[key] || !platform || !/^\d/.test(version)) return;
  const [os, cpu, libc] = platform;
  lock.packages[key] = {
    version,
    cpu,
    license: 'MIT',
    optional: true,
    os,
    ...(libc ? { libc } : {}),
  };
  added.push(name);
}

const canvas = lock.packages['node_modules/@napi-rs/canvas'];
for (const [name, version] of Object.entries(canvas?.optionalDependencies ?? {}))
  addMissing(name, version, platforms[name.replace('@napi-rs/canvas-', '')]);
// The same gap for other packages' platform builds (rollup's, for Vite): every top-level optional
// dependency whose name says its platform.
for (const [key, entry] of Object.entries(lock.packages)) {
  if (!key.startsWith('node_modules/') || key.split('node_modules/').length > 2) continue;
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) addMissing(name, version);
}
const entries = Object.entries(lock.packages).sort(([a], [b]) =>
  a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1,
);
lock.packages = Object.fromEntries(entries);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.join(', ')}` : 'lockfile already complete');
