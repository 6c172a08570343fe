import { arr, bool, dateTime, nullable, OperationDef, record, ref, singleEnvelope, str, JsonSchema, SCOPES } from './common';

export const PLANS = ['free', 'pro', 'business'] as const;

export const schemas: Record<string, JsonSchema> = {
  Account: record({
    id: str({ pattern: '^acc_' }),
    name: str(),
    plan: str({ enum: [...PLANS], description: '`free` has no API access (402); `pro` and `business` do.' }),
    api_access: bool({ description: 'whether the plan includes this API' }),
    environment: ref('Environment'),
    created_at: dateTime('when the account was created'),
  }),
  Actor: {
    description:
      'The credential of the request: an API key, or an access token of an application (docs/api-conventions.md, "Applications and tokens").',
    oneOf: [ref('KeyActor'), ref('ApplicationActor')],
  },
  KeyActor: record({
    type: str({ enum: ['api_key'] }),
    key_id: str({ pattern: '^key_' }),
    name: str(),
    prefix: str({ description: 'the first characters of the key, enough to recognise it; never the secret' }),
    scopes: arr(str({ enum: [...SCOPES] })),
    environment: ref('Environment'),
    expires_at: nullable(dateTime('when the key stops working; null for no expiry')),
  }),
  ApplicationActor: record({
    type: str({ enum: ['application'] }),
    application_id: str({ pattern: '^app_', description: "the application's id, which is its client_id" }),
    name: str(),
    scopes: arr(str({ enum: [...SCOPES] }), { description: 'the scopes of this token' }),
    environment: ref('Environment'),
    expires_at: dateTime('when this token stops working (one hour after the exchange)'),
  }),
  Me: record({ account: ref('Account'), actor: ref('Actor') }),
};

export const operations: OperationDef[] = [
  {
    operationId: 'account_get',
    method: 'get',
    path: '/me',
    scope: 'account:read',
    tag: 'Account',
    summary: 'The account and the actor (key or application) bound to the credential',
    success: { status: 200, description: 'The account and actor.', schema: singleEnvelope(ref('Me')) },
  },
];
