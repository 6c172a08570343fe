/**
 * Channel connectors behind one small interface (`Connector`, types.ts).
 * Each classifies failures as transient (retried) or permanent (that group
 * fails), and no error message carries a token or a destination address.
 *
 * - `http`: our JSON protocol for chat gateways (http.ts, docs/guides/publishing.md);
 * - `telegram`: the Bot API, which cannot deduplicate (telegram.ts);
 * - `sandbox`: test environment: recorded, not sent (sandbox.ts).
 */
import { Db } from 'mongodb';
import { ChannelConfig } from '../store';
import { httpConnector } from './http';
import { DEFAULT_TIMEOUT_MS } from './post';
import { sandboxConnector } from './sandbox';
import { telegramConnector } from './telegram';
import { Connector } from './types';

export { Connector, ConnectorError, OutboundMessage } from './types';

/**
 * The connector of `channel`; the sandbox without one (test environment).
 * `timeoutMs` bounds each request (default 10 s).
 */
export function connectorFor(channel: ChannelConfig | null, deps: { db: Db; timeoutMs?: number }): Connector {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (channel?.type === 'http') return httpConnector(channel, timeoutMs);
  if (channel?.type === 'telegram') return telegramConnector(channel, timeoutMs);
  return sandboxConnector(deps.db);
}
