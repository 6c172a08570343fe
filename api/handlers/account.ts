import { planHasApiAccess } from '../../domain/accounts/store';
import { iso } from '../../domain/resource';
import { Handler } from './types';

export const accountGet: Handler<'account_get'> = async ({ account, key, tenant }) => ({
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
      actor: {
        type: 'api_key',
        key_id: key._id,
        name: key.name,
        prefix: key.prefix,
        scopes: key.scopes,
        environment: key.env,
        expires_at: iso(key.expires_at),
      },
    },
  },
});
