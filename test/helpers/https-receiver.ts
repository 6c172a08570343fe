/**
 * A webhook receiver: a real HTTPS server on 127.0.0.1 with a self-signed
 * certificate made by the openssl CLI, answering with scripted statuses and
 * keeping every request with its headers and raw body.
 */
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listener } from './listener';

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface HttpsReceiver {
  url: string;
  /** PEM of the certificate, for the client to trust. */
  ca: string;
  requests: ReceivedRequest[];
  /**
   * Statuses for the next requests to a path, in order; 200 once they run
   * out. A 3xx points at `/followed` on this server; 0 never answers.
   */
  scripts: Map<string, number[]>;
  /** The requests received on `path`. */
  on(path: string): ReceivedRequest[];
  close(): Promise<void>;
}

export async function startHttpsReceiver(): Promise<HttpsReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'offerops-receiver-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const receiver: HttpsReceiver = {
    url: '',
    ca: cert,
    requests: [],
    scripts: new Map(),
    on: (path) => receiver.requests.filter((r) => r.path === path),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(
    { key, cert },
    listener(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      receiver.requests.push({ path: req.url!, headers: req.headers as Record<string, string>, body });
      const status = receiver.scripts.get(req.url!)?.shift() ?? 200;
      if (status === 0) return; // left hanging until the client gives up or the server closes
      res.writeHead(status, status >= 300 && status < 400 ? { location: '/followed' } : {});
      res.end();
    }),
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  receiver.url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
