/** What the sandbox connector "sends": recorded once per idempotency key, never delivered. */
import { Db } from 'mongodb';
import { isDuplicateKey, platformCollection } from '../db';

/** Inserts the message under its key; a repeat finds the key taken and keeps the first. */
export async function recordSandboxMessage(
  db: Db,
  idempotencyKey: string,
  message: { to: string; text: string; imageUrl?: string },
): Promise<void> {
  try {
    await platformCollection<{ _id: string; to: string; text: string; image_url: string | null; at: Date }>(db, 'sandbox_messages').insertOne({
      _id: idempotencyKey,
      to: message.to,
      text: message.text,
      image_url: message.imageUrl ?? null,
      at: new Date(),
    });
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
  }
}
