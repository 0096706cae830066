/**
 * Answers what Node's HTTP server handles before Fastify sees a request, with the same error
 * envelope and `X-Request-Id` as every other response: requests its parser refuses (a malformed
 * `Content-Length`, a bad request line, oversized headers) instead of Fastify's default
 * `{"error":"Bad Request",...}`; an `Expect` other than `100-continue` instead of Node's bare 417;
 * and `CONNECT`, which Node would answer by closing the socket.
 */
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../core/errors.ts';
import { randomBase62 } from '../core/ids.ts';
import { errorBody } from './error-handler.ts';

interface ConnectionError extends Error {
  code?: string;
}

/** The methods some route of the service answers (the `Allow` of a 405 to CONNECT). */
const SERVED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS';
const ROUTED = new Set(SERVED_METHODS.split(', '));

const newRequestId = () => `req_${randomBase62(16)}`;

function appErrorFor(error: ConnectionError): AppError {
  // 413 rather than 431: the contract's catalogue names no code of its own for headers.
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new AppError('PAYLOAD_TOO_LARGE', 'The request headers are too large.');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new AppError('VALIDATION_FAILED', 'The request was not received in time.');
  return new AppError('VALIDATION_FAILED', 'The request is not well-formed HTTP.');
}

/** A whole HTTP/1.1 error response as bytes to write on a socket, closing the connection. */
function rawErrorResponse(appError: AppError, headers: Record<string, string> = {}): string {
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(appError, requestId));
  const extra = Object.entries({ ...appError.headers, ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n${extra}Connection: close\r\n\r\n${body}`
  );
}

export function answerClientError(error: ConnectionError, socket: Duplex): void {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.write(rawErrorResponse(appErrorFor(error)));
  socket.destroy();
}

/**
 * The server's `checkExpectation` listener: an `Expect` header Node does not meet itself (anything
 * but `100-continue`) answers 417 EXPECTATION_FAILED (RFC 9110 §10.1.1), and the connection closes
 * since the body may follow.
 */
export function answerExpectation(_request: IncomingMessage, response: ServerResponse): void {
  const requestId = newRequestId();
  const body = JSON.stringify(errorBody(new AppError('EXPECTATION_FAILED'), requestId));
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
    connection: 'close',
  });
  response.end(body);
}

/**
 * The server's `connect` listener: the service is no proxy, so `CONNECT` answers 405
 * METHOD_NOT_ALLOWED with the methods it does serve, then closes (Node hands the socket over raw).
 */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  // The peer may be gone already; its error has nobody to reach.
  socket.on('error', () => socket.destroy());
  if (socket.destroyed) return;
  const refused = new AppError('METHOD_NOT_ALLOWED', 'CONNECT is not served: this service is no proxy.');
  socket.end(rawErrorResponse(refused, { Allow: SERVED_METHODS }));
}

/**
 * Wraps the server's request handler so that a method the router does not know (Node's parser
 * accepts `PROPFIND`, `MKCOL`, `PURGE`…) answers 405 METHOD_NOT_ALLOWED with the envelope. Fastify
 * would answer 404 after logging its whole route table at warn level for each such request, which a
 * client could use to flood the logs.
 */
export function refuseUnroutedMethods(server: Server): void {
  const handlers = server.listeners('request') as ((
    request: IncomingMessage,
    response: ServerResponse,
  ) => void)[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (ROUTED.has(request.method ?? '')) {
      for (const handle of handlers) handle.call(server, request, response);
      return;
    }
    const requestId = newRequestId();
    const refused = new AppError('METHOD_NOT_ALLOWED', `${request.method ?? 'This method'} is not served.`);
    const body = JSON.stringify(errorBody(refused, requestId));
    response.writeHead(405, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      allow: SERVED_METHODS,
      connection: 'close',
    });
    response.end(body);
  });
}
