/**
 * The handler of every operation, keyed by operationId. A test fails when
 * this map and the document's operations differ.
 */
import { accountGet } from './account';
import { analyticsGroups, analyticsHeatmap, analyticsOffers, analyticsSources, analyticsSummary, analyticsTimeseries } from './analytics';
import { groupGet, groupsList, groupUpdate } from './groups';
import { journeyActivate, journeyCreate, journeyDelete, journeyExecutionsList, journeyGet, journeysList, journeyUpdate } from './journeys';
import {
  contactsList,
  conversationClose,
  conversationGet,
  conversationMessagesList,
  conversationReply,
  conversationsList,
  conversationUpdate,
} from './inbox';
import { linkConvert } from './links';
import { monitorCreate, monitorDelete, monitorGet, monitorsList, monitorUpdate } from './monitors';
import { publicationGet, publicationsList } from './publications';
import { offerArchive, offerCreate, offerGet, offerPreview, offerPublish, offersList, offerUpdate } from './offers';
import { scheduleCreate, scheduleDelete, scheduleGet, scheduleRun, schedulesList, scheduleUpdate } from './schedules';
import { storeCollectionsList, storeGet, storePageCreate, storeUpdate } from './store';
import { segmentCreate, segmentDelete, segmentGet, segmentsList, segmentUpdate } from './segments';
import { templateCreate, templateDelete, templateGet, templatesList, templateUpdate } from './templates';
import { Handler, OperationId } from './types';
import { commissionGet, commissionsList, commissionsSummary } from './commissions';
import { couponCreate, couponDeactivate, couponGet, couponsList, couponUpdate } from './coupons';
import { webhookCreate, webhookDelete, webhookDeliveriesList, webhookGet, webhooksList, webhookUpdate } from './webhooks';

/** Every operation's handler: a missing or misspelt operationId is a compile error. */
export const handlers: { readonly [K in OperationId]: Handler<K> } = {
  account_get: accountGet,
  analytics_summary: analyticsSummary,
  analytics_timeseries: analyticsTimeseries,
  analytics_groups: analyticsGroups,
  analytics_offers: analyticsOffers,
  analytics_sources: analyticsSources,
  analytics_heatmap: analyticsHeatmap,
  commissions_list: commissionsList,
  commissions_summary: commissionsSummary,
  commission_get: commissionGet,
  coupons_list: couponsList,
  coupon_create: couponCreate,
  coupon_get: couponGet,
  coupon_update: couponUpdate,
  coupon_deactivate: couponDeactivate,
  conversations_list: conversationsList,
  conversation_get: conversationGet,
  conversation_update: conversationUpdate,
  conversation_close: conversationClose,
  conversation_messages_list: conversationMessagesList,
  conversation_reply: conversationReply,
  contacts_list: contactsList,
  offers_list: offersList,
  offer_create: offerCreate,
  offer_get: offerGet,
  offer_update: offerUpdate,
  offer_archive: offerArchive,
  offer_preview: offerPreview,
  offer_publish: offerPublish,
  publications_list: publicationsList,
  publication_get: publicationGet,
  webhooks_list: webhooksList,
  webhook_create: webhookCreate,
  webhook_get: webhookGet,
  webhook_update: webhookUpdate,
  webhook_delete: webhookDelete,
  webhook_deliveries_list: webhookDeliveriesList,
  groups_list: groupsList,
  group_get: groupGet,
  group_update: groupUpdate,
  segments_list: segmentsList,
  segment_create: segmentCreate,
  segment_get: segmentGet,
  segment_update: segmentUpdate,
  segment_delete: segmentDelete,
  templates_list: templatesList,
  template_create: templateCreate,
  template_get: templateGet,
  template_update: templateUpdate,
  template_delete: templateDelete,
  monitors_list: monitorsList,
  link_convert: linkConvert,
  monitor_create: monitorCreate,
  monitor_get: monitorGet,
  monitor_update: monitorUpdate,
  monitor_delete: monitorDelete,
  schedules_list: schedulesList,
  schedule_create: scheduleCreate,
  schedule_get: scheduleGet,
  schedule_update: scheduleUpdate,
  schedule_delete: scheduleDelete,
  schedule_run: scheduleRun,
  journeys_list: journeysList,
  journey_create: journeyCreate,
  journey_get: journeyGet,
  journey_update: journeyUpdate,
  journey_delete: journeyDelete,
  journey_activate: journeyActivate,
  journey_executions_list: journeyExecutionsList,
  store_get: storeGet,
  store_update: storeUpdate,
  store_collections_list: storeCollectionsList,
  store_page_create: storePageCreate,
};
