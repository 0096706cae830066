/** The pino logger: structured JSON, request ids, and secrets redacted wherever they could appear. */
import pino, { type Logger } from 'pino';

export const redactPaths = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  'key',
  'token',
  'secret',
  'password',
  '*.key',
  '*.token',
  '*.secret',
  '*.password',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: redactPaths, censor: '[redacted]' },
      serializers: {
        req(request: { method?: string; url?: string; id?: string }) {
          // Capability URLs are secrets too: log which kind of file, never its key.
          const url = request.url?.startsWith('/files/') ? '/files/[redacted]' : request.url;
          return { method: request.method, url, requestId: request.id };
        },
      },
    },
    destination,
  );
}
