#!/usr/bin/env node
// The `platen` command: the JavaScript compiled from src/ by `npm run build` (which `npm ci` runs
// through `prepare`); no TypeScript compiler is loaded. Stack traces point at the .ts lines.
import { existsSync } from 'node:fs';

process.setSourceMapsEnabled(true);
const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('platen: not built yet; run `npm run build` (npm ci runs it through prepare)\n');
  process.exit(1);
}
await import(entry.href);
