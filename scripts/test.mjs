#!/usr/bin/env node
// The README's test command. Runs the whole vitest suite, says plainly which environment-dependent
// parts ran or were skipped (PostgreSQL, Chromium, poppler), and ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'test', '.tmp');
mkdirSync(outDir, { recursive: true });
const jsonPath = join(outDir, 'vitest-report.json');

function pythonVersion() {
  const probe = spawnSync('python3', ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'], {
    encoding: 'utf8',
  });
  const version = probe.status === 0 ? probe.stdout.trim() : '';
  const [major, minor] = version.split('.').map(Number);
  return major === 3 && minor >= 9 ? `Python ${version}` : '';
}

const env = [
  [
    'PostgreSQL',
    process.env.PLATEN_TEST_DATABASE_URL
      ? `yes (${process.env.PLATEN_TEST_DATABASE_URL})`
      : 'no: set PLATEN_TEST_DATABASE_URL to run the store, concurrency and API suites on PostgreSQL too',
  ],
  [
    'Redis',
    process.env.PLATEN_TEST_REDIS_URL
      ? `yes (${process.env.PLATEN_TEST_REDIS_URL})`
      : 'no: set PLATEN_TEST_REDIS_URL to test the shared rate limiter',
  ],
  [
    'Chromium',
    existsSync('/usr/bin/chromium')
      ? 'yes (/usr/bin/chromium)'
      : 'no: browser tests are skipped (apt-get install chromium)',
  ],
  [
    'Python',
    pythonVersion()
      ? `yes (${pythonVersion()}: the Python SDK's tests run)`
      : 'no: the Python SDK tests are skipped (python3 >= 3.9 runs them)',
  ],
  [
    'poppler',
    existsSync('/usr/bin/pdftotext') ? 'yes' : 'no: PDF checks are skipped (apt-get install poppler-utils)',
  ],
  [
    'strace',
    spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0
      ? "yes: the folder store's sync order is watched"
      : 'no: the folder store durability test is skipped (apt-get install strace)',
  ],
  [
    'barcodes',
    [
      existsSync('/usr/bin/zbarimg') ? 'zbarimg' : 'no zbarimg (apt-get install zbar-tools)',
      existsSync('/usr/bin/dmtxread') ? 'dmtxread' : 'no dmtxread (apt-get install dmtx-utils)',
      spawnSync('/usr/bin/python3', ['-c', 'import zxingcpp'], { stdio: 'ignore' }).status === 0
        ? 'zxing-cpp'
        : 'no zxing-cpp (apt-get install python3-zxing-cpp)',
    ].join(', ') + ': decoding checks without their decoder are skipped',
  ],
];
console.log('Environment for this test run:');
for (const [name, state] of env) console.log(`  ${name.padEnd(11)} ${state}`);

const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${jsonPath}`,
  ...process.argv.slice(2),
];
const result = spawnSync('npx', args, { stdio: 'inherit', cwd: root, env: process.env });

let passed = 0;
let failed = 0;
let skipped = 0;
try {
  const report = JSON.parse(readFileSync(jsonPath, 'utf8'));
  passed = report.numPassedTests ?? 0;
  // A file whose hook failed reports its tests as skipped: count the file as a failure too.
  const failedFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((t) => t.status === 'failed'),
  );
  failed = (report.numFailedTests ?? 0) + failedFiles.length;
  for (const file of failedFiles)
    console.log(`\nFAILED outside a test: ${file.name}\n${(file.message ?? '').slice(0, 2000)}`);
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const skippedNames = [];
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'pending' || t.status === 'skipped') skippedNames.push(t.fullName);
    }
  }
  if (skippedNames.length) {
    console.log(`\nSkipped (${skippedNames.length}), each names its reason:`);
    for (const name of skippedNames.slice(0, 60)) console.log(`  - ${name}`);
    if (skippedNames.length > 60) console.log(`  … and ${skippedNames.length - 60} more`);
  }
} catch {
  failed = Math.max(failed, 1);
}
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(result.status === 0 && failed === 0 ? 0 : 1);
