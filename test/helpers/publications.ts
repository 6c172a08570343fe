/** A queued publication's document as the request stores it (text only, no offer), for tests that write one directly. */
import { Tenant } from '../../domain/db';
import { newId } from '../../domain/ids';
import { PublicationDoc } from '../../domain/publications/store';

export function queuedPublicationDoc(tenant: Tenant, groupIds: string[], segmentId: string | null = null): PublicationDoc {
  const now = new Date();
  return {
    _id: newId('pub'),
    account_id: tenant.accountId,
    env: tenant.env,
    offer_id: null,
    group_id: null,
    segment_id: segmentId,
    schedule_id: null,
    template_id: null,
    text: 'Hello',
    image_url: null,
    with_image: false,
    status: 'queued',
    group_ids: groupIds,
    event_id: null,
    request_hash: null,
    queued_at: now,
    completed_at: null,
    created_at: now,
    updated_at: now,
  };
}
