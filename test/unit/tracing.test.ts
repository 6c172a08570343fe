/**
 * Which exporter the environment chooses (domain/tracing.ts), and the
 * default OTLP protocol, protobuf, reaching a collector (the JSON one is
 * test/processes/traces.test.ts's).
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { startTracing, tracingExporterFromEnv } from '../../domain/tracing';

test('tracing is off unless an exporter is configured; an unknown choice or gRPC stops the process', () => {
  assert.equal(tracingExporterFromEnv({}), 'off');
  assert.equal(startTracing('offerops-test', {}), undefined);
  assert.equal(tracingExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }), 'otlp');
  assert.equal(tracingExporterFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }), 'otlp');
  assert.equal(tracingExporterFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OFFEROPS_TRACING: 'off' }), 'off');
  assert.equal(tracingExporterFromEnv({ OFFEROPS_TRACING: 'console' }), 'console');
  assert.throws(() => tracingExporterFromEnv({ OFFEROPS_TRACING: 'jaeger' }), /OFFEROPS_TRACING must be otlp, console or off, not jaeger/);
  assert.throws(
    () => startTracing('offerops-test', { OFFEROPS_TRACING: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    /must be http\/protobuf or http\/json/,
  );
});

test('by default spans leave as OTLP protobuf to <endpoint>/v1/traces, with the service name', async () => {
  const received: { url: string; type: string; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', type: req.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  // The exporter reads its endpoint from the process's environment.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const tracing = startTracing('offerops-test', { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.OTEL_EXPORTER_OTLP_ENDPOINT })!;
    assert.equal(tracing.exporter, 'otlp');
    tracing.tracer.startSpan('a span').end();
    await tracing.shutdown();
    assert.equal(received.length, 1);
    assert.equal(received[0]!.url, '/v1/traces');
    assert.equal(received[0]!.type, 'application/x-protobuf');
    // Protobuf keeps strings as they are: the span's and the service's names are in the message.
    assert.ok(received[0]!.body.includes('a span'));
    assert.ok(received[0]!.body.includes('offerops-test'));
  } finally {
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    server.close();
  }
});
