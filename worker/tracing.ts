/**
 * The worker's side of tracing and logs: the SDK's OpenTelemetry activity
 * interceptors and the sink through which workflows export their spans
 * (workflows/tracing.ts makes them), and the SDK's logger as JSON lines of
 * our logger.
 */
import type { Logger as TemporalLogger, LogLevel, LogMetadata } from '@temporalio/common';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { Logger } from 'pino';
import type { Tracing } from '../domain/tracing';

/**
 * What Worker.create takes for tracing. On: a span per activity (the child of
 * the workflow's span that scheduled it), whose trace and span ids its log
 * lines carry, and the workflows' spans exported with the process's own. Off:
 * no activity interceptor, and a sink that drops what a workflow started
 * under another process's tracing (the API's) would export.
 */
export function workerTracing(tracing: Tracing | undefined): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) {
    const sinks: InjectedSinks<OpenTelemetrySinks> = { exporter: { export: { fn: () => undefined } } };
    return { sinks };
  }
  const sdk = makeWorkflowExporter(tracing.processor, tracing.resource);
  // The SDK's sink copies the whole workflow info onto each span, search attributes and memo included
  // (a publication's subject names its offer): only the workflow's identity goes out.
  const sinks: InjectedSinks<OpenTelemetrySinks> = {
    exporter: { export: { fn: (info, spans) => sdk.export.fn(spanIdentity(info), spans) } },
  };
  return {
    sinks,
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
  };
}

/** What a workflow's spans say of it: the ids and names an operator looks a run up by, nothing of its data. */
function spanIdentity(info: WorkflowInfo): WorkflowInfo {
  const { workflowId, runId, workflowType, taskQueue, namespace, attempt } = info;
  return { workflowId, runId, workflowType, taskQueue, namespace, attempt } as WorkflowInfo;
}

const LEVELS: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * The SDK's logger (Runtime.install) as lines of `logger`: an activity's lines
 * carry its workflow's id and run id (`workflowId`, `workflowRunId`), its type
 * and attempt, and under tracing `trace_id` and `span_id`; a workflow's lines
 * the same of the workflow. The task token is left out: it can complete the
 * activity.
 */
export function temporalLogger(logger: Logger): TemporalLogger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata): void => {
    const { taskToken: _taskToken, ...fields } = meta ?? {};
    logger[LEVELS[level]](fields, message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
