/**
 * A CSV batch costs bounded work and a bounded answer whatever its header holds: at most 256
 * columns, duplicates checked before unknown names, at most 20 issues, column names clipped. Against
 * a real server on loopback: a 2 MB header of a million columns, four at once, each answers 400 under
 * 64 KB while /healthz keeps answering. Time bounds here only tell a hang from an answer (a loaded
 * CI machine is slow); how fast it is belongs to the benchmarks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CSV_BYTES, MAX_CSV_COLUMNS, MAX_CSV_ISSUES, rowsFromCsv } from '../src/batches/csv.ts';
import { AppError } from '../src/core/errors.ts';
import { simpleDocument } from './fixtures/samples.ts';
import { bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const known = new Set(['name', 'headline']);

function refusal(text: string): { message: string; details: Array<{ path: string; message: string }> } {
  try {
    rowsFromCsv(text, known, 1000);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { message: error.message, details: error.details as Array<{ path: string; message: string }> };
  }
  throw new Error('the CSV was accepted');
}

/** `count` columns named `c0…`, comma-separated: the 1,000,000-column header fits 2 MB with 1-char names. */
const columns = (count: number, name = (i: number) => `c${i}`) =>
  Array.from({ length: count }, (_, i) => name(i)).join(',');

describe('CSV header bounds (rowsFromCsv)', () => {
  it(`takes ${MAX_CSV_COLUMNS} columns and refuses ${MAX_CSV_COLUMNS + 1} with one issue`, () => {
    const header = columns(MAX_CSV_COLUMNS);
    expect(refusal(`${header}\n`).details).toHaveLength(MAX_CSV_ISSUES); // unknown names, bounded
    const over = refusal(`${columns(MAX_CSV_COLUMNS + 1)}\n`);
    expect(over.details).toEqual([
      { path: 'csv', message: `the header has more than ${MAX_CSV_COLUMNS} columns` },
    ]);
    // Quoted commas and newlines are inside one field, not columns.
    const quoted = Array.from({ length: MAX_CSV_COLUMNS }, () => '"a,\nb"').join(',');
    expect(refusal(`${quoted}\n`).details[0]?.message).not.toContain('more than');
  });

  it('checks duplicates before unknown names, and reports at most 20 issues', () => {
    const twice = refusal('name,name,bogus\nA,B,C\n');
    expect(twice.details).toEqual([{ path: 'column "name"', message: 'is named twice' }]);
    const many = refusal(`${columns(200, (i) => `x${i % 100}`)}\n`);
    expect(many.details).toHaveLength(MAX_CSV_ISSUES);
    expect(many.details.at(-1)).toEqual({ path: 'csv', message: 'and 81 more like these' });
    const unknown = refusal(`name,${columns(100)}\n`);
    expect(unknown.details).toHaveLength(MAX_CSV_ISSUES);
    expect(unknown.details[0]).toEqual({ path: 'column "c0"', message: 'is no variable of the template' });
  });

  it('clips a long column name and refuses a row of too many fields before parsing it', () => {
    const long = refusal(`${'n'.repeat(1_000_000)}\n`);
    expect(JSON.stringify(long.details).length).toBeLessThan(300);
    // The unclosed quote after the wide row would be csv-parse's complaint: the count refuses first,
    // so the million fields are never parsed.
    const wide = `name\n${columns(1_000_000, () => 'a')}\n"unclosed`;
    const row = refusal(wide);
    expect(row.details).toEqual([{ path: 'line 2', message: "more fields than the header's 1" }]);
    // Rows that fit still parse as before.
    expect(rowsFromCsv('\uFEFFname,headline\r\n"a,""b""",c\r\n\r\nd,e', known, 10)).toEqual([
      { name: 'a,"b"', headline: 'c' },
      { name: 'd', headline: 'e' },
    ]);
  });
});

describe('a million-column CSV header against a real server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(() => server.close());

  it('answers 400 under 64 KB, four at once, while /healthz keeps answering', async () => {
    const { key } = await workspaceWithKey(server.base, { credits: 10 });
    const template = await http(server.base, 'POST', '/v1/templates', {
      body: { name: 't', document: simpleDocument() },
      headers: bearer(key),
    });
    expect(template.status).toBe(201);
    const body = Buffer.from(columns(1_000_000, () => 'a'));
    expect(body.length).toBeLessThanOrEqual(MAX_CSV_BYTES);

    const post = async () => {
      const started = performance.now();
      const answer = await http(server.base, 'POST', `/v1/templates/${template.json.id}/batches/csv`, {
        raw: body,
        headers: { ...bearer(key), 'content-type': 'text/csv' },
      });
      return { answer, ms: performance.now() - started };
    };
    let done = false;
    const probes: number[] = [];
    const probing = (async () => {
      while (!done) {
        const started = performance.now();
        const health = await fetch(`${server.base}/healthz`);
        expect(health.status).toBe(200);
        await health.arrayBuffer();
        probes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const results = await Promise.all([post(), post(), post(), post()]);
    done = true;
    await probing;
    for (const { answer, ms } of results) {
      expect(answer.status).toBe(400);
      expect(answer.bytes.length).toBeLessThan(64 * 1024);
      expect(ms).toBeLessThan(10_000); // an answer, not a hang
      expect(answer.json.error.code).toBe('VALIDATION_FAILED');
      expect(answer.json.error.details).toEqual([
        { path: 'csv', message: `the header has more than ${MAX_CSV_COLUMNS} columns` },
      ]);
    }
    expect(probes.length).toBeGreaterThan(0);
    // Before the bound, parsing a million columns held the event loop for seconds at a time; the
    // client shares this process and CI machines are loaded, so only a stall that long fails.
    expect(Math.max(...probes)).toBeLessThan(2_500);
  }, 120_000);
});
