/**
 * Spans for the work worth seeing in a trace (a render, its time in a render process, a webhook
 * attempt), through the OpenTelemetry API only: without a tracer provider (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) every call is a no-op. The provider and exporter are set up at the
 * composition root (observability/tracing.ts).
 */
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = () => trace.getTracer('platen');

/** Runs `work` in a span (the active one for what it calls); an exception marks the span failed. */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer().startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
