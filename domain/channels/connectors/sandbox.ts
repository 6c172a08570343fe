/** What test-environment sends use: the message is recorded once per idempotency key, never delivered. */
import { Db } from 'mongodb';
import { recordSandboxMessage } from '../sandbox';
import { Connector } from './types';

export function sandboxConnector(db: Db): Connector {
  return {
    supportsImages: true,
    async send(message, idempotencyKey) {
      await recordSandboxMessage(db, idempotencyKey, message);
      return { providerMessageId: idempotencyKey };
    },
  };
}
