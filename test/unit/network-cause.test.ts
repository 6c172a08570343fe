/** What an outbound failure says of its cause: refused, timed out after N s, DNS, TLS — with the code, never a host. */
import assert from 'node:assert/strict';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { requestJson } from '../../domain/channels/connectors/post';
import { networkCause } from '../../domain/network-cause';

const listening = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

test('a refused connection and a timeout, through a real fetch: the gateway names each cause', async () => {
  const closed = createServer();
  const port = await listening(closed);
  await new Promise((resolve) => closed.close(resolve));
  await assert.rejects(requestJson('POST', `http://127.0.0.1:${port}/messages`, 'messages', {}, { timeoutMs: 2_000 }), {
    message: 'the gateway could not be reached: connection refused (ECONNREFUSED)',
  });
  const silent = createServer(() => undefined); // takes the request, never answers
  const silentPort = await listening(silent);
  try {
    await assert.rejects(requestJson('POST', `http://127.0.0.1:${silentPort}/messages`, 'messages', {}, { timeoutMs: 200 }), {
      message: 'the gateway did not answer in time: timed out after 0.2 s',
    });
  } finally {
    silent.closeAllConnections();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test('DNS and TLS failures in words with their code; an unknown code as itself; nothing of the error text', () => {
  const failure = (code: string, message = `${code} at secret-host.example 10.1.2.3`) =>
    new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
  assert.equal(networkCause(failure('ENOTFOUND')), 'DNS: no such host (ENOTFOUND)');
  assert.equal(networkCause(failure('EAI_AGAIN')), 'DNS: the name server did not answer (EAI_AGAIN)');
  assert.equal(networkCause(failure('CERT_HAS_EXPIRED')), 'TLS: the certificate has expired (CERT_HAS_EXPIRED)');
  assert.equal(
    networkCause(failure('DEPTH_ZERO_SELF_SIGNED_CERT')),
    'TLS: a self-signed certificate, not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)',
  );
  assert.equal(networkCause(failure('ERR_SSL_WRONG_VERSION_NUMBER')), 'TLS: the handshake failed (ERR_SSL_WRONG_VERSION_NUMBER)');
  assert.equal(networkCause(failure('EPROTO')), 'EPROTO');
  assert.equal(networkCause(failure('ECONNRESET')), 'the connection was reset (ECONNRESET)');
  assert.equal(networkCause(new Error('no code here')), 'no connection');
  assert.equal(networkCause(Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), 15_000), 'timed out after 15 s');
});
