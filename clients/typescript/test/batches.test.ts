/**
 * Batches through the SDK against a real server: from JSON rows and from CSV text, waited for,
 * with their manifest and ZIP; identical rows free; a batch that is not running refuses a cancel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness/server.ts';
import { PlatenError } from '../src/index.ts';
import { caught, sdkWorkspace } from './setup.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer('sqlite');
});
afterAll(() => server.close());

const wait = { pollIntervalMs: 50, timeoutMs: 20_000 };

/** The names of the files a stored (uncompressed) ZIP holds, from its local file headers. */
function zipEntries(zip: Uint8Array): string[] {
  const bytes = Buffer.from(zip);
  const names: string[] = [];
  for (let at = bytes.indexOf('PK\x03\x04'); at >= 0; at = bytes.indexOf('PK\x03\x04', at + 4)) {
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    names.push(bytes.toString('utf8', at + 30, at + 30 + nameLength));
    at += 30 + nameLength + extraLength - 4;
  }
  return names;
}

describe('batches', () => {
  it('renders JSON rows (identical rows free), waits for them, and zips the files', async () => {
    const { platen, templateId, ledger } = await sdkWorkspace(server, 10);
    const batch = await platen.batches.create(templateId, {
      rows: [{ headline: 'A' }, { headline: 'B' }, { headline: 'A' }],
      format: 'png',
    });
    expect(batch).toMatchObject({ templateId, format: 'png', status: 'running', total: 3 });
    const finished = await platen.batches.wait(batch.id, wait);
    expect(finished).toMatchObject({
      id: batch.id,
      status: 'completed',
      progress: { done: 3, failed: 0, pending: 0 },
    });
    expect(finished.rows.map((row) => [row.row, row.status])).toEqual([
      [1, 'done'],
      [2, 'done'],
      [3, 'done'],
    ]);
    // Row 3 is row 1 again: the same render, charged once.
    expect(finished.rows[2]?.renderId).toBe(finished.rows[0]?.renderId);
    expect(await ledger()).toEqual([10, -1, -1]);
    expect((await platen.batches.get(batch.id)).status).toBe('completed');
    const zip = await platen.batches.downloadZip(batch.id);
    expect(zipEntries(zip).sort()).toEqual(['manifest.json', 'row-1.png', 'row-2.png', 'row-3.png']);
    const refused = await caught(platen.batches.cancel(batch.id));
    expect(refused).toBeInstanceOf(PlatenError);
    expect(refused).toMatchObject({ status: 409, code: 'CONFLICT' });
  });

  it('renders a CSV whose header names the variables, with its options in the query', async () => {
    const { platen, templateId } = await sdkWorkspace(server, 10);
    const csv = 'headline,name\n"Zoë, the ""best""",Ada\nPlain,Bob\n';
    const batch = await platen.batches.createFromCsv(templateId, csv, {
      format: 'jpeg',
      scale: 2,
      allPages: false,
    });
    expect(batch).toMatchObject({ format: 'jpeg', total: 2 });
    const finished = await platen.batches.wait(batch.id, wait);
    expect(finished.progress).toEqual({ done: 2, failed: 0, pending: 0 });
    const first = finished.rows[0]?.renderId ?? '';
    expect(await platen.renders.get(first)).toMatchObject({ format: 'jpeg', width: 800, height: 600 });
    expect(zipEntries(await platen.batches.downloadZip(batch.id))).toContain('row-2.jpg');
  });

  it('refuses a CSV with a column that names no variable, whole, with the column in its details', async () => {
    const { platen, templateId, ledger } = await sdkWorkspace(server, 10);
    const error = await caught(platen.batches.createFromCsv(templateId, 'nmae\nAda\n'));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(JSON.stringify((error as PlatenError).details)).toContain('column');
    expect(await ledger()).toEqual([10]);
  });
});
