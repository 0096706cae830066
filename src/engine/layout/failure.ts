/** Something an element needs is missing or refused; the page layout turns it into a failure. */
export class LayoutFailure extends Error {
  constructor(
    readonly reason: string,
    /** A catalogue code when the failure is the input's fault (BARCODE_INVALID), not the renderer's. */
    readonly code?: string,
  ) {
    super(reason);
    this.name = 'LayoutFailure';
  }
}
