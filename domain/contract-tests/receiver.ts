/**
 * The webhook receiver a contract-test run points a sandbox webhook at: an
 * HTTPS server on 127.0.0.1 with a certificate the worker trusts (the caller
 * gives it: `offerops admin contract-test` uses the dev receiver's, which the
 * stack trusts when started with NODE_EXTRA_CA_CERTS and
 * OFFEROPS_WEBHOOK_ALLOW=127.0.0.1). It keeps what it receives and answers 200;
 * the run checks the signatures (domain/webhooks/signature.ts).
 */
import { once } from 'node:events';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface WebhookReceiver {
  /** `https://127.0.0.1:PORT` */
  url: string;
  received(path: string): ReceivedDelivery[];
  close(): Promise<void>;
}

export async function startReceiver(tls: { cert: string; key: string }): Promise<WebhookReceiver> {
  const got: ReceivedDelivery[] = [];
  const server = createServer({ cert: tls.cert, key: tls.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      got.push({ path: req.url ?? '/', headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received: (path) => got.filter((d) => d.path === path),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
