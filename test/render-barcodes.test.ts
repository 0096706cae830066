/**
 * Barcodes through the render API on a real server: a value its format refuses answers 422
 * RENDER_FAILED naming the page, the element and why, before anything is charged (the balance and
 * the ledger stay as they were: no charge and refund); a modification sets a barcode's value by its
 * name, and the file served scans (zbarimg) as that value.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from './harness/backends.ts';
import { admin, bearer, http, startTestServer, type TestServer, workspaceWithKey } from './harness/server.ts';

const ZBAR = existsSync('/usr/bin/zbarimg');

function barcodeDocument() {
  return {
    schemaVersion: 2,
    pages: [
      {
        id: 'label',
        width: 360,
        height: 200,
        background: '#ffffff',
        elements: [
          {
            id: 'ean',
            name: 'sku',
            type: 'barcode',
            format: 'ean13',
            value: '5901234123457',
            x: 20,
            y: 20,
            width: 320,
            height: 160,
          },
        ],
      },
      {
        id: 'crate',
        width: 460,
        height: 220,
        elements: [
          {
            id: 'box',
            type: 'group',
            x: 0,
            y: 0,
            width: 460,
            height: 220,
            elements: [
              {
                id: 'itf',
                name: 'case',
                type: 'barcode',
                format: 'itf14',
                value: '10012345678902',
                x: 10,
                y: 10,
                width: 440,
                height: 200,
              },
            ],
          },
        ],
      },
    ],
  };
}

for (const backend of backends) {
  describe.skipIf(backend.skip)(
    `barcodes in the render API on ${backend.name}${backend.skip ? ` (skipped: ${backend.skip})` : ''}`,
    () => {
      let server: TestServer;
      let key: string;
      let workspaceId: string;
      let templateId: string;
      const render = (body: unknown) =>
        http(server.base, 'POST', `/v1/templates/${templateId}/render`, { body, headers: bearer(key) });
      const balance = async () =>
        (await admin(server.base, 'GET', `/workspaces/${workspaceId}`)).json.creditBalance as number;
      const ledgerLength = async () =>
        (await admin(server.base, 'GET', `/workspaces/${workspaceId}/ledger`)).json.items.length as number;

      beforeAll(async () => {
        server = await startTestServer(backend.name);
        ({ key, workspaceId } = await workspaceWithKey(server.base, { credits: 100 }));
        const created = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'label', document: barcodeDocument() },
          headers: bearer(key),
        });
        expect(created.status).toBe(201);
        templateId = created.json.id;
      });
      afterAll(() => server.close());

      it('refuses a wrong EAN check digit with 422 RENDER_FAILED, charging nothing', async () => {
        const before = await balance();
        const entries = await ledgerLength();
        const res = await render({ modifications: { sku: '5901234123458' } });
        expect([res.status, res.json.error.code]).toEqual([422, 'RENDER_FAILED']);
        expect(res.json.error.details).toEqual({
          pageId: 'label',
          elementId: 'ean',
          reason: 'barcode value refused: EAN-13 check digit is wrong: 590123412345 needs 7, not 8',
        });
        expect(res.json.error.message).toBe(
          "Element 'ean' on page 'label' could not be rendered: barcode value refused: EAN-13 check digit is wrong: 590123412345 needs 7, not 8.",
        );
        expect(await balance()).toBe(before);
        // Not charged and refunded: never charged at all.
        expect(await ledgerLength()).toBe(entries);
      });

      it('refuses letters in an EAN, and a bad value inside a group, naming the nested element', async () => {
        const before = await balance();
        const letters = await render({ modifications: { sku: '59012341234AB' } });
        expect([letters.status, letters.json.error.details.reason]).toEqual([
          422,
          'barcode value refused: EAN-13 takes digits only',
        ]);
        const nested = await render({ pageId: 'crate', modifications: { case: '10012345678903' } });
        expect(nested.status).toBe(422);
        expect(nested.json.error.details).toMatchObject({ pageId: 'crate', elementId: 'itf' });
        expect(nested.json.error.details.reason).toMatch(/ITF-14 check digit is wrong/);
        expect(await balance()).toBe(before);
      });

      it('checks only the pages rendered, and only barcodes that are drawn', async () => {
        // The bad ITF-14 is on the page not selected; the bad EAN is hidden by a modification.
        const res = await render({
          pageId: 'label',
          modifications: { case: '10012345678903', sku: 'not a number', 'sku.visible': 'false' },
        });
        expect(res.status).toBe(200);
        expect(res.json.credits.charged).toBe(1);
      });

      it('sets a barcode value by its name; the file scans as that value', async () => {
        const before = await balance();
        const res = await render({ modifications: { sku: '4006381333931' } });
        expect(res.status).toBe(200);
        expect(res.json.credits).toEqual({ charged: 1, balanceAfter: before - 1 });
        if (!ZBAR) return; // zbar-tools is not installed: the value is not scanned back
        const bytes = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
        const file = join(mkdtempSync(join(tmpdir(), 'platen-barcode-api-')), 'label.png');
        writeFileSync(file, bytes);
        const scanned = execFileSync('/usr/bin/zbarimg', ['--nodbus', '--raw', '-q', file], {
          encoding: 'utf8',
        });
        expect(scanned.trim()).toBe('4006381333931');
      });

      it('adds the check digit to a 12-digit EAN value', async () => {
        const res = await render({ modifications: { sku: '400638133393' } });
        expect(res.status).toBe(200);
        if (!ZBAR) return; // zbar-tools is not installed: the value is not scanned back
        const bytes = Buffer.from(await (await fetch(res.json.url)).arrayBuffer());
        const file = join(mkdtempSync(join(tmpdir(), 'platen-barcode-api-')), 'label.png');
        writeFileSync(file, bytes);
        const scanned = execFileSync('/usr/bin/zbarimg', ['--nodbus', '--raw', '-q', file], {
          encoding: 'utf8',
        });
        expect(scanned.trim()).toBe('4006381333931');
      });

      it('refuses a 100 KB barcode value in a template with 400 and its path', async () => {
        const doc = barcodeDocument();
        const page = doc.pages[0];
        const ean = page?.elements[0] as { format: string; value: string };
        ean.format = 'code128';
        ean.value = 'x'.repeat(100_000);
        const res = await http(server.base, 'POST', '/v1/templates', {
          body: { name: 'huge', document: doc },
          headers: bearer(key),
        });
        expect([res.status, res.json.error.code]).toEqual([400, 'VALIDATION_FAILED']);
        expect(JSON.stringify(res.json.error.details)).toContain('pages[0].elements[0].value');
      });
    },
  );
}
