/**
 * OpenTelemetry tracing, off unless an OTLP endpoint is configured
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_ENDPOINT). Off, no
 * SDK is loaded, `tracingOn()` is false and the instrumented code starts no
 * span at all (one boolean check per request, command, page and message).
 *
 * On, spans follow a request through the service: `HTTP <method> <route>` →
 * `command <stream category>` (CommandExecutor) → `event-store append` →
 * `projection page` (parented on the first traced event of the page, linked
 * to the others) and `publish <topic>` → `consume <topic>` on the bus, with
 * W3C `traceparent` in the message headers and in the events' metadata (so
 * work that starts from the log joins the trace of the request that wrote
 * it). Every span carries the correlation id as `correlation_id`.
 *
 * The SDK keeps the active span in an AsyncLocalStorage, which costs on every
 * promise in Node 20 and 22: one more reason it is loaded only when asked for.
 */
import {
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind, SpanStatusCode, context, trace };
export type { Context, Span };

let enabled = false;
let activeTracer: Tracer = trace.getTracer('agent-platform-service');

/** true once startTracing ran: instrumented code checks this before touching the API. */
export function tracingOn(): boolean {
  return enabled;
}

export function tracer(): Tracer {
  return activeTracer;
}

export interface TracingOptions {
  serviceName: string;
  /** OTLP/HTTP traces URL; ignored when `exporter` is given */
  endpoint?: string;
  /** another exporter (tests: InMemorySpanExporter); spans are then exported one by one, at once */
  exporter?: SpanExporter;
  /** fraction of new traces recorded (default 1); a sampled parent is always followed */
  sampleRatio?: number;
}

export interface TracingHandle {
  /** exports what is pending and stops */
  shutdown(): Promise<void>;
}

/** Loads the SDK and registers it globally (once per process, before the app is built). */
export function startTracing(options: TracingOptions): TracingHandle {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { BasicTracerProvider, BatchSpanProcessor, SimpleSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } =
    require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  let processor;
  if (options.exporter) {
    processor = new SimpleSpanProcessor(options.exporter);
  } else {
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    processor = new BatchSpanProcessor(new OTLPTraceExporter({ url: options.endpoint }));
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.sampleRatio ?? 1) }),
    spanProcessors: [processor],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  activeTracer = trace.getTracer('agent-platform-service');
  enabled = true;
  return {
    async shutdown() {
      enabled = false;
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
      activeTracer = trace.getTracer('agent-platform-service');
    },
  };
}

type HeaderBag = Record<string, string | string[] | undefined>;

/** The context a `traceparent` (header or event metadata) names; the root context when absent or malformed. */
export function contextFrom(headers: HeaderBag, parent: Context = ROOT_CONTEXT): Context {
  return propagation.extract(parent, headers);
}

/** The `traceparent` of a span's context, for headers and event metadata. */
export function traceparentOf(ctx: Context): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier.traceparent;
}

/** Links to the spans named by these traceparents (distinct, at most `max`). */
export function linksTo(traceparents: Iterable<string>, max = 32): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const value of traceparents) {
    if (links.length >= max) break;
    if (seen.has(value)) continue;
    seen.add(value);
    const spanContext = trace.getSpanContext(contextFrom({ traceparent: value }));
    if (spanContext) links.push({ context: spanContext });
  }
  return links;
}

/** Ends a span as failed with the error's message. */
export function failSpan(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  if (error instanceof Error) span.recordException(error);
}

/** Runs `work` inside a new span (active during it), ended when it settles. */
export async function inSpan<T>(name: string, attributes: Record<string, string | number>, parent: Context, kind: SpanKind, work: () => Promise<T>): Promise<T> {
  const span = activeTracer.startSpan(name, { kind, attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), work);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}
