/**
 * The workflows' tracing (the workflow bundle's interceptor module,
 * tools/build/workflow-bundle.ts). A workflow started with a trace context in
 * its headers (by a client under tracing, domain/tracing.ts) runs under the
 * SDK's OpenTelemetry interceptors: its own span, a span per activity or
 * child it starts with the context passed on in that one's headers, the
 * trace ids on its log lines, its spans exported through the worker's
 * `exporter` sink. A workflow started without one (tracing off, or a
 * Temporal Schedule's start) runs as if there were no interceptor: no span,
 * no sink call, the OpenTelemetry code not even loaded.
 */
import type { WorkflowInboundCallsInterceptor, WorkflowInterceptors, WorkflowOutboundCallsInterceptor } from '@temporalio/workflow';
import type * as otel from '@temporalio/interceptors-opentelemetry/lib/workflow';

/** The header the SDK's interceptors carry the trace context in (their TRACE_HEADER). */
export const TRACE_HEADER = '_tracer-data';

/** The SDK's three workflow interceptors, created for a traced workflow. */
interface Traced {
  inbound: otel.OpenTelemetryInboundInterceptor;
  outbound: otel.OpenTelemetryOutboundInterceptor;
  internals: otel.OpenTelemetryInternalsInterceptor;
}

function tracedInterceptors(): Traced {
  // Loaded only for a traced workflow: the module evaluation is paid by those alone.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@temporalio/interceptors-opentelemetry/lib/workflow') as typeof otel;
  return {
    inbound: new sdk.OpenTelemetryInboundInterceptor(),
    outbound: new sdk.OpenTelemetryOutboundInterceptor(),
    internals: new sdk.OpenTelemetryInternalsInterceptor(),
  };
}

export const interceptors = (): WorkflowInterceptors => {
  // Decided by the start's headers, the same on every replay of the run.
  let traced: Traced | undefined;
  const inbound: WorkflowInboundCallsInterceptor = {
    execute: (input, next) => {
      if (input.headers[TRACE_HEADER] === undefined) return next(input);
      traced = tracedInterceptors();
      return traced.inbound.execute(input, next);
    },
    handleSignal: (input, next) => (traced ? traced.inbound.handleSignal(input, next) : next(input)),
    handleUpdate: (input, next) => (traced ? traced.inbound.handleUpdate(input, next) : next(input)),
    validateUpdate: (input, next) => (traced ? traced.inbound.validateUpdate(input, next) : next(input)),
    handleQuery: (input, next) => (traced ? traced.inbound.handleQuery(input, next) : next(input)),
  };
  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => (traced ? traced.outbound.scheduleActivity(input, next) : next(input)),
    scheduleLocalActivity: (input, next) => (traced ? traced.outbound.scheduleLocalActivity(input, next) : next(input)),
    startChildWorkflowExecution: (input, next) => (traced ? traced.outbound.startChildWorkflowExecution(input, next) : next(input)),
    signalWorkflow: (input, next) => (traced ? traced.outbound.signalWorkflow(input, next) : next(input)),
    continueAsNew: (input, next) => (traced ? traced.outbound.continueAsNew(input, next) : next(input)),
    getLogAttributes: (input, next) => (traced ? traced.outbound.getLogAttributes(input, next) : next(input)),
  };
  return {
    inbound: [inbound],
    outbound: [outbound],
    internals: [
      {
        dispose: (input, next) => {
          // The SDK's dispose is async in name only: it stops its context manager and calls `next` at once.
          if (traced) void traced.internals.dispose(input, next);
          else next(input);
        },
      },
    ],
  };
};
