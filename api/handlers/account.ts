import { planHasApiAccess } from '../../domain/accounts/store';
import { Credential } from '../../domain/developer/credentials';
import { iso } from '../../domain/resource';
import { Schema } from '../../schemas/types';
import { Handler } from './types';

/** The actor of `/me`: the key, or the application whose token was used (never a secret). */
function actorOf(credential: Credential): Schema<'Actor'> {
  if (credential.type === 'application') {
    return {
      type: 'application',
      application_id: credential.id,
      name: credential.name,
      scopes: [...credential.scopes],
      environment: credential.env,
      expires_at: credential.expiresAt.toISOString(),
    };
  }
  const { key } = credential;
  return {
    type: 'api_key',
    key_id: key._id,
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    environment: key.env,
    expires_at: iso(key.expires_at),
  };
}

export const accountGet: Handler<'account_get'> = async ({ account, credential, tenant }) => ({
  body: {
    data: {
      account: {
        id: account._id,
        name: account.name,
        plan: account.plan,
        api_access: planHasApiAccess(account.plan),
        environment: tenant.env,
        created_at: account.created_at.toISOString(),
      },
      actor: actorOf(credential),
    },
  },
});
