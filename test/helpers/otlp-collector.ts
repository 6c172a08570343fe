/**
 * An OpenTelemetry collector as far as traces over OTLP/HTTP in JSON go: a
 * real HTTP server on 127.0.0.1 that takes `POST /v1/traces`
 * (`application/json`, an ExportTraceServiceRequest) and keeps every span
 * with its service's name. Ids are hex strings and values AnyValue objects,
 * as the OTLP specification's JSON encoding has them.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { listener } from './listener';

/** OTLP's AnyValue in JSON: one of these fields. */
interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}
interface KeyValue {
  key: string;
  value: AnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  events?: { name: string; attributes?: KeyValue[] }[];
}
interface ExportTraceServiceRequest {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

export interface CollectedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** '' for a trace's root. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  /** Every string the span carries: its name, its attributes' and its events' values. */
  strings: string[];
}

export interface OtlpCollector {
  /** The base address, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: CollectedSpan[];
  /** The requests that were not an OTLP/JSON export (path, content type), none expected. */
  refused: string[];
  close(): Promise<void>;
}

function plain(value: AnyValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  if (value.kvlistValue) return Object.fromEntries((value.kvlistValue.values ?? []).map((kv) => [kv.key, plain(kv.value)]));
  return null;
}

const attributesOf = (list: KeyValue[] = []): Record<string, unknown> => Object.fromEntries(list.map((kv) => [kv.key, plain(kv.value)]));

/** Every string in `value`, however deep. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

export async function startOtlpCollector(): Promise<OtlpCollector> {
  const collector: OtlpCollector = {
    url: '',
    spans: [],
    refused: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(
    listener(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      const type = req.headers['content-type'] ?? '';
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.startsWith('application/json')) {
        collector.refused.push(`${req.method} ${req.url} ${type}`);
        res.writeHead(415).end();
        return;
      }
      const request = JSON.parse(text) as ExportTraceServiceRequest;
      for (const resourceSpans of request.resourceSpans ?? []) {
        const service = attributesOf(resourceSpans.resource?.attributes)['service.name'];
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? []) {
            const attributes = attributesOf(span.attributes);
            const events = (span.events ?? []).map((e) => ({ name: e.name, attributes: attributesOf(e.attributes) }));
            collector.spans.push({
              service: typeof service === 'string' ? service : '',
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes,
              strings: [span.name, ...strings(attributes), ...strings(events)],
            });
          }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  collector.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return collector;
}
