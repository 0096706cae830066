/**
 * Batches (docs/api.md, Batches): one template rendered once per row of variables, from JSON rows
 * or a CSV whose header names the variables; the batch's manifest as it progresses, waiting for it
 * to finish, cancelling it (refunding rows not rendered yet), and the ZIP of its files.
 */
import type { JsonBody, QueryOf, Schemas } from './api-types.ts';
import { pollUntil, type WaitOptions } from './polling.ts';
import { type ApiClient, call } from './transport.ts';

/** The batch with its manifest: per row its status, render id and file URL(s), or its error. */
export type Batch = Schemas['Batch'];
export type BatchRow = Batch['rows'][number];
/** `rows` of variables, and the render options every row shares (format, scale, quality, fps, pages…). */
export type BatchRequest = JsonBody<'createBatch'>;
/** The render options of a CSV batch (sent in its query). */
export type CsvBatchOptions = Omit<QueryOf<'createBatchFromCsv'>, 'allPages' | 'dither'> & {
  allPages?: boolean;
  dither?: boolean;
};

/** A flag as the query carries it. */
const flag = (value: boolean | undefined) =>
  value === undefined ? {} : { value: value ? ('true' as const) : ('false' as const) };

export class Batches {
  constructor(private readonly api: ApiClient) {}

  /**
   * Starts a batch (201). The whole batch is priced first: one the balance cannot pay in full is
   * refused with `INSUFFICIENT_CREDITS` and nothing is charged. A bad row fails alone.
   */
  create(templateId: string, request: BatchRequest): Promise<Batch> {
    return call(
      this.api.POST('/v1/templates/{id}/batches', { params: { path: { id: templateId } }, body: request }),
    );
  }

  /**
   * Starts a batch from CSV text (RFC 4180; the header line names the variables). A malformed line
   * or a column that names no variable refuses the whole CSV with `VALIDATION_FAILED`.
   */
  createFromCsv(templateId: string, csv: string, options: CsvBatchOptions = {}): Promise<Batch> {
    const { allPages, dither, ...rest } = options;
    const pages = flag(allPages);
    const dithered = flag(dither);
    const query = {
      ...rest,
      ...('value' in pages ? { allPages: pages.value } : {}),
      ...('value' in dithered ? { dither: dithered.value } : {}),
    };
    return call(
      this.api.POST('/v1/templates/{id}/batches/csv', {
        params: { path: { id: templateId }, query },
        body: csv,
        // The body is the CSV itself, not JSON.
        bodySerializer: (body: string) => body,
        headers: { 'content-type': 'text/csv' },
      }),
    );
  }

  get(id: string): Promise<Batch> {
    return call(this.api.GET('/v1/batches/{id}', { params: { path: { id } } }));
  }

  /** Cancels a running batch; `CONFLICT` (409) when it is not running any more. */
  cancel(id: string): Promise<Batch> {
    return call(this.api.POST('/v1/batches/{id}/cancel', { params: { path: { id } } }));
  }

  /**
   * Waits until no row is pending (`completed`, or `cancelled`) and answers the batch; a failed row
   * does not throw, its `error` is in the manifest. `PlatenTimeoutError` after `timeoutMs` (default
   * an hour; polled every second).
   */
  wait(id: string, options: WaitOptions = {}): Promise<Batch> {
    return pollUntil(
      `batch ${id}`,
      (signal) => call(this.api.GET('/v1/batches/{id}', { params: { path: { id } }, signal })),
      (batch) => (batch.status === 'running' ? undefined : batch),
      options,
      { pollIntervalMs: 1000, timeoutMs: 3_600_000 },
    );
  }

  /** A ZIP of `manifest.json` and the done rows' files (`row-3.png`, `row-3-page-2.png`). */
  async downloadZip(id: string): Promise<Uint8Array> {
    const zip = await call(
      this.api.GET('/v1/batches/{id}/files.zip', { params: { path: { id } }, parseAs: 'arrayBuffer' }),
    );
    return new Uint8Array(zip);
  }
}
