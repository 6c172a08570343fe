/**
 * Channel connectors behind one small interface (`Connector`, types.ts).
 * Each classifies failures as transient (retried) or permanent (that group
 * fails), and no error message carries a token or a destination address.
 *
 * - `http`: our JSON protocol for chat gateways (http.ts, docs/guides/publishing.md);
 * - `telegram`: the Bot API, which cannot deduplicate (telegram.ts);
 * - `evolution`, `waha`: the WhatsApp gateways Evolution API and WAHA, which
 *   cannot deduplicate either (evolution.ts, waha.ts; their operator side,
 *   webhook, session state and groups, behind `gatewayFor`);
 * - `sandbox`: test environment: recorded, not sent (sandbox.ts).
 */
import { Db } from 'mongodb';
import { ChannelConfig } from '../store';
import { evolutionConnector, evolutionGateway } from './evolution';
import { httpConnector } from './http';
import { DEFAULT_TIMEOUT_MS } from './post';
import { sandboxConnector } from './sandbox';
import { telegramConnector } from './telegram';
import { Connector, ConnectorError } from './types';
import { wahaConnector, wahaGateway } from './waha';
import { WhatsAppGateway } from './whatsapp';

export { Connector, ConnectorError, OutboundMessage } from './types';

/**
 * The connector of `channel`; the sandbox without one (test environment).
 * `timeoutMs` bounds each request (default 10 s).
 */
export function connectorFor(channel: ChannelConfig | null, deps: { db: Db; timeoutMs?: number }): Connector {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (channel?.type === 'http') return httpConnector(channel, timeoutMs);
  if (channel?.type === 'telegram') return telegramConnector(channel, timeoutMs);
  if (channel?.type === 'evolution') return evolutionConnector(channel, timeoutMs);
  if (channel?.type === 'waha') return wahaConnector(channel, timeoutMs);
  return sandboxConnector(deps.db);
}

/** The operator's side of a WhatsApp gateway channel (webhook, session state, groups); refused for another type. */
export function gatewayFor(channel: ChannelConfig, timeoutMs = DEFAULT_TIMEOUT_MS): WhatsAppGateway {
  if (channel.type === 'evolution') return evolutionGateway(channel, timeoutMs);
  if (channel.type === 'waha') return wahaGateway(channel, timeoutMs);
  throw new ConnectorError(`a ${channel.type} channel is not a WhatsApp gateway (evolution or waha)`, true);
}
