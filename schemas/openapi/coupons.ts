import {
  FORM_KEYWORD,
  arr,
  bool,
  dateTime,
  filter,
  httpsUrl,
  idOf,
  JsonSchema,
  nullable,
  num,
  object,
  OperationDef,
  record,
  ref,
  str,
} from './common';
import { resource } from './crud';

export const COUPON_STATUSES = ['active', 'scheduled', 'expired', 'inactive'] as const;
export const COUPON_CHANGES = ['created', 'updated', 'deactivated', 'reactivated'] as const;

/** Update bodies accept `null` to clear an optional value; create bodies simply omit it. */
const clearable = (create: boolean, s: JsonSchema): JsonSchema => (create ? s : nullable(s));

const couponFields = (create: boolean): Record<string, JsonSchema> => ({
  code: str({
    minLength: 1,
    maxLength: 60,
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
    [FORM_KEYWORD]: 'letters, digits, _ . and -, starting with a letter or digit, e.g. BLACK10',
    description: 'the code the shopper types; letters, digits, `_`, `.`, `-`',
  }),
  store: str({ minLength: 1, maxLength: 120, description: 'the store the coupon is valid at' }),
  marketplace: clearable(create, str({ maxLength: 40, description: 'marketplace the store sells through, when any' })),
  description: clearable(create, str({ maxLength: 500, description: 'conditions in words, shown with the coupon' })),
  discount: ref('CouponDiscountInput'),
  currency: str({
    minLength: 3,
    maxLength: 8,
    description: 'ISO 4217 code of money amounts: an `amount` discount, `max_amount`, `min_purchase`',
    ...(create ? { default: 'BRL' } : {}),
  }),
  min_purchase: clearable(create, num({ minimum: 0, description: 'eligibility: minimum order value, in `currency`' })),
  first_purchase_only: bool({
    description: "eligibility: only a shopper's first order at the store",
    ...(create ? { default: false } : {}),
  }),
  categories: arr(str({ minLength: 1, maxLength: 120 }), {
    maxItems: 50,
    uniqueItems: true,
    description: 'eligibility: product categories the coupon applies to; empty for the whole store',
  }),
  url: clearable(create, httpsUrl({ maxLength: 2000, description: 'HTTPS page where the coupon is activated or listed' })),
  starts_at: clearable(create, dateTime('validity: first instant the coupon works; omitted for immediately')),
  expires_at: clearable(create, dateTime('validity: instant the coupon stops working; omitted for no expiry')),
  verified: bool({
    description: 'the team checked that the coupon works; only verified coupons are listed by default',
    ...(create ? { default: false } : {}),
  }),
});

const money = (description: string): JsonSchema => num({ exclusiveMinimum: 0, description });

export const schemas: Record<string, JsonSchema> = {
  CouponStatus: str({
    enum: [...COUPON_STATUSES],
    description:
      'Derived from validity and deactivation: `inactive` once deactivated (DELETE), else `expired` after `expires_at`, ' +
      'else `scheduled` before `starts_at`, else `active`.',
  }),
  CouponDiscountInput: {
    description:
      'The discount, by `type`: `percent` off the order (`value` 0 < v ≤ 100, optional `max_amount` cap in `currency`), ' +
      'a fixed `amount` off (`value` in `currency`), or `free_shipping`.',
    oneOf: [
      object(
        {
          type: str({ const: 'percent' }),
          value: num({ exclusiveMinimum: 0, maximum: 100, description: 'percent off' }),
          max_amount: money('cap of the discount, in `currency`'),
        },
        ['type', 'value'],
      ),
      object({ type: str({ const: 'amount' }), value: money('money off, in `currency`') }, ['type', 'value']),
      object({ type: str({ const: 'free_shipping' }) }, ['type']),
    ],
  },
  CouponDiscount: {
    description: 'The discount as registered (see CouponDiscountInput).',
    oneOf: [
      record({
        type: str({ const: 'percent' }),
        value: num({ exclusiveMinimum: 0, maximum: 100 }),
        max_amount: nullable(num({ description: 'cap in `currency`; null for none' })),
      }),
      record({ type: str({ const: 'amount' }), value: num({ exclusiveMinimum: 0 }) }),
      record({ type: str({ const: 'free_shipping' }) }),
    ],
  },
  CouponChange: record(
    {
      at: dateTime('when the change was made'),
      change: str({ enum: [...COUPON_CHANGES] }),
      fields: arr(str(), { description: 'the fields an `updated` change touched; empty for the others' }),
    },
    { description: "One entry of a coupon's history." },
  ),
  CouponCreate: object(couponFields(true), ['code', 'store', 'discount'], {
    description:
      'A coupon to register. The code (case-insensitive) is unique per store (case-insensitive) among coupons that are neither `inactive` nor `expired` ' +
      '(409 `conflict` otherwise). ' +
      '`expires_at` before `starts_at` is a 400 `validation_failed`.',
  }),
  CouponUpdate: object(
    {
      ...couponFields(false),
      active: bool({ description: '`true` reactivates a deactivated coupon; `false` deactivates it (as DELETE does)' }),
    },
    [],
    {
      description: 'Only the fields sent change; `null` clears an optional value; `discount` and `categories` are replaced as a whole.',
    },
  ),
  Coupon: record(
    {
      id: idOf('cpn'),
      code: str(),
      store: str(),
      marketplace: nullable(str()),
      description: nullable(str()),
      discount: ref('CouponDiscount'),
      currency: str(),
      min_purchase: nullable(num()),
      first_purchase_only: bool(),
      categories: arr(str()),
      url: nullable(str()),
      starts_at: nullable(dateTime('validity start; null for immediately')),
      expires_at: nullable(dateTime('validity end; null for no expiry')),
      verified: bool(),
      verified_at: nullable(dateTime('when the coupon was last marked verified')),
      active: bool({ description: 'false once deactivated' }),
      status: ref('CouponStatus'),
      created_at: dateTime('creation time'),
      updated_at: dateTime('last change'),
      deactivated_at: nullable(dateTime('when the coupon was deactivated')),
      history: arr(ref('CouponChange'), { description: 'every change, oldest first (kept after deactivation)' }),
    },
    { description: 'A coupon with its discount, eligibility rules and validity.' },
  ),
  CouponDeactivation: object(
    {
      deleted: bool({ description: 'true: the coupon left the active list' }),
      deactivated: bool({ description: 'true: the coupon is kept, with its history, as `inactive`' }),
      id: idOf('cpn'),
      request_id: ref('RequestId'),
    },
    ['deleted', 'deactivated', 'id', 'request_id'],
    { description: 'Result of DELETE /coupons/{id}: the coupon is deactivated, never erased.' },
  ),
};

const coupons = resource({ tag: 'Coupons', area: 'coupons', path: '/coupons', name: 'coupon', schema: 'Coupon' });

export const operations: OperationDef[] = [
  coupons.list({
    summary: 'List coupons (by default the active, verified ones)',
    description: 'Newest first. Without filters only `active`, verified coupons are listed; `status=any` and `verification=any` widen the list.',
    filters: [
      filter('status', 'Only coupons in this state; `any` for every state.', str({ enum: [...COUPON_STATUSES, 'any'], default: 'active' })),
      filter(
        'verification',
        'Only verified coupons, only unverified ones, or `any`.',
        str({ enum: ['verified', 'unverified', 'any'], default: 'verified' }),
      ),
      filter('store', 'Only coupons of this store (case-insensitive exact match).', str({ minLength: 1, maxLength: 120 })),
      filter('marketplace', 'Only coupons of this marketplace.', str({ minLength: 1, maxLength: 40 })),
    ],
  }),
  coupons.create({
    summary: 'Register a coupon',
    description: 'A code already registered for the same store and neither `inactive` nor `expired` is a 409 `conflict`.',
  }),
  coupons.get({ summary: 'Coupon rules and validity' }),
  coupons.update({
    summary: 'Update validity, discount, eligibility',
    description:
      'Only the fields sent change. `expires_at` before `starts_at` is a 400 `validation_failed`; a change of code or store, a reactivation ' +
      'or a new validity that would make two live coupons share a code at one store is a 409 `conflict`.',
  }),
  coupons.delete({
    operationId: 'coupon_deactivate',
    summary: 'Deactivate the coupon (history kept)',
    description: 'The coupon becomes `inactive` and stays readable; deactivating an inactive coupon changes nothing.',
    success: 'The deactivation envelope.',
    result: 'CouponDeactivation',
  }),
];
