/**
 * The token exchange of applications (spec 5.6), as a small OpenAPI document
 * of its own: it lives at the site root (`/api/developer/oauth/token`),
 * outside the v1 contract's `/api/v1` server, speaks RFC 6749 (form bodies,
 * HTTP Basic, `{error, error_description}`) rather than the v1 conventions,
 * and so stays out of the 73 operations. Written to
 * `schemas/oauth-openapi.json` by `npm run openapi`; served at
 * `/api/developer/openapi.json`.
 */
import { JsonSchema, SCOPES } from './common';

export const OAUTH_DOCUMENT_PATH = '/api/developer/openapi.json';

const scopeList = {
  type: 'string',
  maxLength: 1000,
  description: `Scope names separated by spaces, each one of the application's (${SCOPES.length} exist: ${SCOPES.join(', ')}). Left out: every scope of the application.`,
};

const tokenRequest = (extra: JsonSchema = {}): JsonSchema => ({
  type: 'object',
  properties: {
    grant_type: {
      type: 'string',
      enum: ['client_credentials'],
      description: 'When given, client_credentials (anything else: 400 unsupported_grant_type).',
    },
    client_id: { type: 'string', maxLength: 200, description: "The application's id (`app_…`)." },
    client_secret: { type: 'string', maxLength: 200, description: 'The secret shown once when the application was created (`oo_cs_…`).' },
    scope: scopeList,
  },
  description:
    'client_id and client_secret here, or as HTTP Basic (RFC 6749 §2.3.1) — not both. Unknown parameters are ignored (RFC 6749 §3.2); ' +
    'a parameter given twice is a 400 invalid_request.',
  ...extra,
});

const oauthError = (codes: string[], description: string): JsonSchema => ({
  description,
  headers: { 'Cache-Control': { $ref: '#/components/headers/NoStore' } },
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          error: { type: 'string', enum: codes },
          error_description: { type: 'string', description: 'What is wrong, for a developer; never a secret.' },
        },
        required: ['error', 'error_description'],
        additionalProperties: false,
      },
    },
  },
});

export const oauthDocument: JsonSchema = {
  openapi: '3.1.2',
  info: {
    title: 'offerops application token exchange',
    version: '1.1.0',
    description:
      'Applications registered on an account exchange their client credentials for a Bearer access token valid one hour ' +
      '(the client-credentials grant, RFC 6749 §4.4). The token works on every operation of the v1 API (`/api/v1/openapi.json`) ' +
      "within its scopes and the application's environment; revoking the application makes its tokens fail at once (401 revoked_token), " +
      'an expired one answers 401 expired_token.',
  },
  servers: [{ url: 'http://127.0.0.1:8080', description: 'the site root of the local stack (no /api/v1)' }],
  paths: {
    '/api/developer/oauth/token': {
      post: {
        operationId: 'oauth_token',
        summary: 'Exchange client credentials for an access token',
        tags: ['Applications'],
        security: [{}, { ClientBasic: [] }],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: tokenRequest() },
            'application/x-www-form-urlencoded': { schema: tokenRequest() },
          },
        },
        responses: {
          '200': {
            description: 'The access token. Never cached (`Cache-Control: no-store`).',
            headers: { 'Cache-Control': { $ref: '#/components/headers/NoStore' } },
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    access_token: {
                      type: 'string',
                      pattern: '^oo_at_[A-Za-z0-9]{40}$',
                      description: 'Send as `Authorization: Bearer …` to the v1 API.',
                    },
                    token_type: { type: 'string', enum: ['Bearer'] },
                    expires_in: { type: 'integer', enum: [3600], description: 'Seconds the token works.' },
                    scope: { type: 'string', description: 'The scopes granted, separated by spaces.' },
                  },
                  required: ['access_token', 'token_type', 'expires_in', 'scope'],
                  additionalProperties: false,
                },
              },
            },
          },
          '400': oauthError(
            ['invalid_request', 'invalid_scope', 'unsupported_grant_type'],
            'A malformed request (`invalid_request`: a body neither JSON nor form, a parameter twice, two client authentications), ' +
              "a scope outside the application's (`invalid_scope`), or a grant_type other than client_credentials (`unsupported_grant_type`).",
          ),
          '401': {
            ...oauthError(
              ['invalid_client'],
              'Unknown client, wrong secret, revoked application, or no client credentials. With HTTP Basic, a `WWW-Authenticate: Basic` challenge.',
            ),
            headers: {
              'Cache-Control': { $ref: '#/components/headers/NoStore' },
              'WWW-Authenticate': { description: 'When the client authenticated with HTTP Basic.', schema: { type: 'string' } },
            },
          },
          '405': oauthError(['invalid_request'], 'Only POST (`Allow: POST`).'),
        },
      },
    },
  },
  components: {
    securitySchemes: {
      ClientBasic: { type: 'http', scheme: 'basic', description: 'client_id:client_secret, each form-urlencoded (RFC 6749 §2.3.1).' },
    },
    headers: {
      NoStore: { description: 'Always `no-store`.', schema: { type: 'string', enum: ['no-store'] } },
    },
  },
};
