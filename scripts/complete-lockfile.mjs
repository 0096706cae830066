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
const canvas = lock.packages['node_modules/@napi-rs/canvas'];
const added = [];
for (const [name, version] of Object.entries(canvas?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  const platform = platforms[name.replace('@napi-rs/canvas-', '')];
  if (lock.packages[key] || !platform) continue;
  const [os, cpu, libc] = platform;
  lock.packages[key] = {
    version,
    cpu,
    license: 'MIT',
    optional: true,
    os,
    ...(libc ? { libc } : {}),
    engines: { node: '>= 10' },
  };
  added.push(name);
}
const entries = Object.entries(lock.packages).sort(([a], [b]) =>
  a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1,
);
lock.packages = Object.fromEntries(entries);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.join(', ')}` : 'lockfile already complete');
