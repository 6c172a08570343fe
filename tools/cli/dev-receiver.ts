/**
 * `offerops dev receiver`: a sample HTTPS webhook receiver, to try webhooks
 * on one machine. It makes a self-signed certificate for 127.0.0.1 and
 * localhost once (with the openssl command) and keeps it in its directory,
 * so a stack started to trust it (NODE_EXTRA_CA_CERTS) keeps trusting it
 * across restarts of the receiver. Each delivery is printed as one line with
 * whether its Standard Webhooks signature verified (domain/webhooks/signature.ts:
 * the check the contract-test run makes too) and answered 200 if it did, 401 if not.
 */
import { once } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { isSigningSecret, Verdict, verifySignature } from '../../domain/webhooks/signature';
import { selfSignedCertificate } from './certificate';
import { DevServer, portOf } from './dev-gateway';
import { UsageError } from './errors';
import { dataDir } from './stack-config';

/** The receiver's certificate in `dir`, kept there for the next start (the stack trusts that file). */
export const receiverCertificate = (dir: string) => selfSignedCertificate(dir, 'offerops dev receiver');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The event's id, kind and data, when the body is one. */
function eventOf(body: string): { id?: unknown; kind?: unknown; data?: unknown } | null {
  try {
    const parsed: unknown = JSON.parse(body);
    return typeof parsed === 'object' && parsed !== null ? parsed : null;
  } catch {
    return null;
  }
}

export async function startDevReceiver(opts: { port?: string; secret?: string; dir?: string }, out: { json: boolean }): Promise<DevServer> {
  const port = portOf(opts.port, 9443);
  const { secret } = opts;
  if (secret !== undefined && !isSigningSecret(secret)) {
    throw new UsageError('--secret must be the whsec_… signing secret POST /webhooks answered with');
  }
  const dir = resolve(opts.dir ?? join(dataDir(), 'dev-receiver'));
  const { cert, key, certFile } = receiverCertificate(dir);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = await readBody(req);
    const verdict: Verdict | null = secret === undefined ? null : verifySignature(secret, req.headers, body);
    const status = verdict && !verdict.verified ? 401 : 200;
    const event = eventOf(body);
    const line = {
      at: new Date().toISOString(),
      path: req.url ?? '/',
      // The Standard Webhooks `webhook-id` header: the message id, which is the event's id (not the whk_ id).
      message_id: req.headers['webhook-id'] ?? null,
      kind: typeof event?.kind === 'string' ? event.kind : null,
      verified: verdict ? verdict.verified : null,
      ...(verdict && !verdict.verified ? { reason: verdict.reason } : {}),
      status,
      ...(verdict?.verified ? { event } : {}),
    };
    const shown =
      verdict === null
        ? 'signature not checked (no --secret)'
        : verdict.verified
          ? 'signature verified'
          : `signature NOT verified: ${verdict.reason}`;
    process.stdout.write(
      out.json
        ? `${JSON.stringify(line)}\n`
        : `${line.at.slice(11, 19)} ${req.method} ${line.path} ${String(line.message_id)} ${line.kind ?? '(no event kind)'}: ${shown}; answered ${status}${
            verdict?.verified ? `\n    ${JSON.stringify(event?.data ?? null)}` : ''
          }\n`,
    );
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { received: true } : { error: line.reason }));
  };

  const server = createServer({ cert, key }, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  server.listen(port, '127.0.0.1');
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([err]) => Promise.reject(err as Error))]);
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  process.stderr.write(
    [
      `offerops dev receiver listening on ${url} (Ctrl-C stops it)`,
      `  certificate: ${certFile} (self-signed, for 127.0.0.1 and localhost; kept for the next start)`,
      ...(dir === join(dataDir(), 'dev-receiver')
        ? ['  npm start on this data directory, (re)started now, trusts it and lets webhooks reach 127.0.0.1']
        : [
            '  the worker must trust it and be allowed to reach 127.0.0.1: start the stack with',
            `    NODE_EXTRA_CA_CERTS=${certFile} OFFEROPS_WEBHOOK_ALLOW=127.0.0.1 npm start`,
          ]),
      `  register: POST /webhooks with {"url": "${url}", "events": [...]}`,
      secret === undefined
        ? '  signatures: not checked; restart with --secret whsec_… (the secret POST /webhooks answered with) to check them'
        : '  signatures: checked with the --secret given; a delivery that does not verify is answered 401',
      '  each delivery is printed below, one a line',
      '',
    ].join('\n'),
  );
  return {
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}
