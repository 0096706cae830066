/**
 * The renderer's two failures: RenderError (RENDER_FAILED, with the page/element and why) and
 * PoolOverloaded (OVERLOADED, the queue is full). Both are AppErrors, so the HTTP layer maps them
 * like any other catalogue error; both survive the worker boundary as plain data (see toWire).
 */
import { AppError } from '../core/errors.ts';

export interface RenderErrorDetails {
  elementId?: string;
  pageId?: string;
  reason: string;
}

export class RenderError extends AppError {
  declare readonly details: RenderErrorDetails;

  constructor(message: string, details: RenderErrorDetails) {
    super('RENDER_FAILED', message, details);
    this.name = 'RenderError';
  }
}

export class PoolOverloaded extends AppError {
  constructor(message = 'The render queue is full; retry shortly.') {
    super('OVERLOADED', message, undefined, { 'retry-after': '2' });
    this.name = 'PoolOverloaded';
  }
}

/** A RenderError as structured-clonable data, for the trip back from a worker thread. */
export interface WireError {
  message: string;
  details: RenderErrorDetails;
}

export function toWire(error: RenderError): WireError {
  return { message: error.message, details: { ...error.details } };
}

export function fromWire(wire: WireError): RenderError {
  return new RenderError(wire.message, wire.details);
}

/** Message for a failure of one element, e.g. "Element 'photo' on page 'square': image URL refused". */
export function elementFailure(pageId: string, elementId: string | undefined, reason: string): RenderError {
  const where = elementId ? `Element '${elementId}' on page '${pageId}'` : `Page '${pageId}'`;
  return new RenderError(`${where} could not be rendered: ${reason}.`, {
    pageId,
    ...(elementId ? { elementId } : {}),
    reason,
  });
}
