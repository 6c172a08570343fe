/**
 * Custom search attributes of offerops workflows. Registered on the namespace
 * at start-up (tools/stack/temporal-setup.ts); workflows set them with
 * `upsertSearchAttributes`/`typedSearchAttributes`. Workflow-safe: imports
 * only `@temporalio/common`.
 */
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

export const OfferopsAccountId = defineSearchAttributeKey('OfferopsAccountId', SearchAttributeType.KEYWORD);
/** `live` or `test`. */
export const OfferopsEnvironment = defineSearchAttributeKey('OfferopsEnvironment', SearchAttributeType.KEYWORD);
export const OfferopsResourceId = defineSearchAttributeKey('OfferopsResourceId', SearchAttributeType.KEYWORD);
/** What the workflow is about, e.g. `publication` or `webhook_delivery`. */
export const OfferopsKind = defineSearchAttributeKey('OfferopsKind', SearchAttributeType.KEYWORD);

/** Where the workflow's subject stands, e.g. a webhook delivery's `pending`, `retrying`, `succeeded` or `failed`. */
export const OfferopsState = defineSearchAttributeKey('OfferopsState', SearchAttributeType.KEYWORD);
/** The domain event kind a workflow is about (webhook deliveries), e.g. `offer.created`. */
export const OfferopsEventKind = defineSearchAttributeKey('OfferopsEventKind', SearchAttributeType.KEYWORD);

export const OFFEROPS_SEARCH_ATTRIBUTES = [OfferopsAccountId, OfferopsEnvironment, OfferopsResourceId, OfferopsKind, OfferopsState, OfferopsEventKind] as const;

/** The typed search attributes of an offerops workflow: whose it is and what it is about. */
export const offeropsSearchAttributes = (account: string, environment: string, resourceId: string, kind: string) => [
  { key: OfferopsAccountId, value: account },
  { key: OfferopsEnvironment, value: environment },
  { key: OfferopsResourceId, value: resourceId },
  { key: OfferopsKind, value: kind },
];
