/** The one interface every channel connector implements. */
import type { TemplateFormat } from '../../templates/store';

export interface OutboundMessage {
  /** The destination address (a JID, a chat id). */
  to: string;
  text: string;
  /** The markup `text` is written in (its template's format); `plain` when absent. */
  format?: TemplateFormat;
  imageUrl?: string;
}

export interface Connector {
  readonly supportsImages: boolean;
  /**
   * Sends `message`. `idempotencyKey` is the same on every retry of one
   * delivery; a connector that can, makes the far end deduplicate on it.
   */
  send(message: OutboundMessage, idempotencyKey: string): Promise<{ providerMessageId: string | null }>;
}

/**
 * A send that failed: `permanent` ones fail the delivery, the others are
 * retried (after `retryAfterMs` when the far end asked for a pause).
 * `disconnected`: the gateway's WhatsApp session is not connected (nothing
 * about the message was wrong; it waits for the session to come back). The
 * message never carries a token or a destination address.
 */
export class ConnectorError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly disconnected = false,
  ) {
    super(message);
    this.name = 'ConnectorError';
  }
}
