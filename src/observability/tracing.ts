/**
 * Optional OpenTelemetry traces: on when OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, exported as OTLP over HTTP by batches. The exporter
 * reads the standard variables itself (endpoint, headers, timeout), as every OpenTelemetry SDK does.
 * Every request gets a server span, continuing the caller's W3C `traceparent` when there is one;
 * features add their own spans through core/tracing.ts (render, render.process, webhook.deliver),
 * which become its children because the request runs inside the span's context (AsyncLocalStorage).
 * The SDK itself is in otlp.ts, imported only when traces are asked for.
 */
import { redactUrl } from '../core/logger.ts';
import type { RequestTracer } from '../http/kernel.ts';

export interface Tracing {
  requests: RequestTracer;
  /** Exports what is buffered and stops (graceful shutdown). */
  shutdown(): Promise<void>;
}

/** Whether the environment asks for traces (the OpenTelemetry variables, as any SDK reads them). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export async function startTracing(options: {
  instanceId: string;
  env?: NodeJS.ProcessEnv;
}): Promise<Tracing | null> {
  const env = options.env ?? process.env;
  if (!tracingRequested(env)) return null;
  // The SDK and the exporter are a noticeable part of a start without traces (docs/performance.md).
  const { startOtlpTracing } = await import('./otlp.ts');
  return startOtlpTracing({ serviceName: env.OTEL_SERVICE_NAME || 'platen', instanceId: options.instanceId });
}

/** The path without its query, with capability paths and tokens redacted as in the logs. */
export function pathForTrace(url: string): string {
  return redactUrl(url.split('?')[0] ?? '/');
}
