/**
 * A stand-in for the Telegram Bot API (a real HTTP server on 127.0.0.1): it
 * records every call (`/bot<token>/<method>` and its JSON body) and answers
 * `{ok: true, result: {message_id}}`, or the answers queued in `answers`.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { listener } from './listener';

export interface BotCall {
  path: string;
  /** The Bot API method: `sendMessage`, `sendPhoto`. */
  method: string;
  body: Record<string, unknown>;
}

export interface FakeTelegram {
  /** The base URL to give a telegram channel (`--url`). */
  url: string;
  calls: BotCall[];
  /** The answers to the next calls, in order; success once they run out. */
  answers: { status: number; body: unknown }[];
  close(): Promise<void>;
}

export async function startFakeTelegram(): Promise<FakeTelegram> {
  let messageId = 0;
  const fake: FakeTelegram = {
    url: '',
    calls: [],
    answers: [],
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer(
    listener(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      fake.calls.push({ path: req.url!, method: req.url!.split('/').pop()!, body: JSON.parse(text) });
      const answer = fake.answers.shift() ?? { status: 200, body: { ok: true, result: { message_id: ++messageId } } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    }),
  ).listen(0, '127.0.0.1');
  await once(server, 'listening');
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
