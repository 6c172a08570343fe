/**
 * A webhook receiver: a real HTTPS server on 127.0.0.1 with a fresh self-signed
 * certificate (tools/cli/certificate.ts), answering with scripted statuses and
 * keeping every request with its headers and raw body.
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCertificate } from '../../tools/cli/certificate';
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
  const { key, cert } = selfSignedCertificate(dir, '127.0.0.1');
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
