/** What the sandbox connector "sends": recorded once per idempotency key, never delivered. */
import { Db } from 'mongodb';
import { platformCollection } from '../db';

export async function recordSandboxMessage(
  db: Db,
  idempotencyKey: string,
  message: { to: string; text: string; imageUrl?: string },
): Promise<void> {
  await platformCollection<{ _id: string }>(db, 'sandbox_messages').updateOne(
    { _id: idempotencyKey },
    { $setOnInsert: { to: message.to, text: message.text, image_url: message.imageUrl ?? null, at: new Date() } },
    { upsert: true },
  );
}
