/**
 * Node's servers call their request listener and drop what it returns: an async
 * test server is wrapped so that a throw answers 500 instead of floating away.
 */
import { IncomingMessage, ServerResponse } from 'node:http';

export function listener(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`test server failed: ${String(err)}`);
    });
  };
}
