/**
 * OpenTelemetry tracing of a process (the API, the worker), off unless the
 * operator configures an exporter: OTLP over HTTP with the standard
 * `OTEL_EXPORTER_OTLP_*` variables, or `OFFEROPS_TRACING=console` to print
 * spans on stdout. docs/operations/observability.md describes the spans.
 */
import type { Tracer } from '@opentelemetry/api';
import { trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter as OTLPJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { envDetectorSync, Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client';
import type { ClientInterceptors } from '@temporalio/client';

/** How spans leave: `OFFEROPS_TRACING`, or OTLP when an OTLP endpoint is set. */
export type TracingExporter = 'otlp' | 'console' | 'off';

/** Tracing as a process runs it: where its spans go, and how to send the last ones on a stop. */
export interface Tracing {
  exporter: Exclude<TracingExporter, 'off'>;
  /** Who the spans come from (`service.name` and the SDK's attributes). */
  resource: Resource;
  /** Where ended spans go: the exporter, in batches (OTLP) or one by one (console). */
  processor: SpanProcessor;
  /** This process's tracer. */
  tracer: Tracer;
  /** Exports the spans still waiting, then stops. */
  shutdown(): Promise<void>;
}

/** The exporter the environment chooses; an unknown OFFEROPS_TRACING stops the process at start. */
export function tracingExporterFromEnv(env: NodeJS.ProcessEnv = process.env): TracingExporter {
  const chosen = env.OFFEROPS_TRACING?.trim();
  if (chosen === 'otlp' || chosen === 'console' || chosen === 'off') return chosen;
  if (chosen) throw new Error(`OFFEROPS_TRACING must be otlp, console or off, not ${chosen}`);
  return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ? 'otlp' : 'off';
}

/** The OTLP exporter of `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` (or `OTEL_EXPORTER_OTLP_PROTOCOL`; default http/protobuf). */
function otlpExporter(env: NodeJS.ProcessEnv): OTLPJsonExporter | OTLPProtobufExporter {
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf').trim();
  // Each reads its endpoint, headers and time-out from the OTEL_EXPORTER_OTLP_* variables itself.
  if (protocol === 'http/protobuf') return new OTLPProtobufExporter();
  if (protocol === 'http/json') return new OTLPJsonExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (OTLP over HTTP), not ${protocol}`);
}

/**
 * Starts tracing for the process named `service` (`OTEL_SERVICE_NAME` and
 * `OTEL_RESOURCE_ATTRIBUTES` win) when the environment configures an
 * exporter; undefined when it does not. Registers the global tracer
 * provider, the async context (the active span follows the awaits of a
 * request or an activity) and the propagator (W3C trace context).
 */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  const exporter = tracingExporterFromEnv(env);
  if (exporter === 'off') return undefined;
  const resource = Resource.default()
    .merge(new Resource({ 'service.name': service }))
    .merge(envDetectorSync.detect());
  const processor = exporter === 'console' ? new SimpleSpanProcessor(new ConsoleSpanExporter()) : new BatchSpanProcessor(otlpExporter(env));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  // The propagator is OTEL_PROPAGATORS' (default: W3C trace context and baggage).
  provider.register({ contextManager: new AsyncLocalStorageContextManager() });
  return { exporter, resource, processor, tracer: trace.getTracer(service), shutdown: () => provider.shutdown() };
}

/**
 * The Temporal client's interceptors under tracing: a workflow started
 * inside a span carries its context in its headers, so the workflow's spans
 * (and its activities') join the trace. None without tracing.
 */
export function temporalClientInterceptors(tracing: Tracing | undefined): ClientInterceptors | undefined {
  return tracing ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] } : undefined;
}
