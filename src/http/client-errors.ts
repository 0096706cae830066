/**
 * Answers requests Node's HTTP parser refuses before Fastify sees them (a malformed
 * `Content-Length`, a bad request line, oversized headers) with the same error envelope as every
 * other response, instead of Fastify's default `{"error":"Bad Request",...}`.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { AppError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';
import { errorBody } from './error-handler.ts';

interface ConnectionError extends Error {
  code?: string;
}

function appErrorFor(error: ConnectionError): AppError {
  // 413 rather than 431: the contract's catalogue names no code of its own for headers.
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new AppError('PAYLOAD_TOO_LARGE', 'The request headers are too large.');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new AppError('VALIDATION_FAILED', 'The request was not received in time.');
  return new AppError('VALIDATION_FAILED', 'The request is not well-formed HTTP.');
}

export function answerClientError(error: ConnectionError, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const appError = appErrorFor(error);
    const body = JSON.stringify(errorBody(appError, `req_${randomBase62(16)}`));
    socket.write(
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
