/** The credential a v1 request was authenticated with: an API key, or an application's access token. */
import { Scope } from '../../schemas/openapi/common';
import { Db } from 'mongodb';
import { ApiKeyDoc, getApiKey } from '../accounts/store';
import { Environment, Tenant } from '../db';
import { applicationOwner } from './applications';

export type Credential =
  | {
      type: 'api_key';
      /** `key_…`: what rate limits and request logs are kept per. */
      id: string;
      env: Environment;
      scopes: readonly Scope[];
      key: ApiKeyDoc;
    }
  | {
      type: 'application';
      /** `app_…` (the application's client_id): every token of one application shares its rate limit and request log. */
      id: string;
      env: Environment;
      /** The token's scopes: those asked for at the exchange, within the application's. */
      scopes: readonly Scope[];
      name: string;
      /** When the token stops working. */
      expiresAt: Date;
    };

export const keyCredential = (key: ApiKeyDoc): Credential => ({ type: 'api_key', id: key._id, env: key.env, scopes: key.scopes, key });

/** The account and environment of a credential id (`key_…` or `app_…`); null when there is none. */
export async function credentialOwner(db: Db, id: string): Promise<Tenant | null> {
  if (id.startsWith('app_')) return applicationOwner(db, id);
  const key = await getApiKey(db, id);
  return key && { accountId: key.account_id, env: key.env };
}
