/** API keys: list, create (scopes, environment, test-key lifetime; the secret shown once with a copy button), revoke. */
import { SCOPES } from '../../schemas/openapi/common';
import { keyState } from '../../domain/accounts/admin';
import { createApiKey, KeyInputError, listApiKeys, revokeApiKey, TEST_KEY_LIFETIMES } from '../../domain/accounts/store';
import { chosenScopes, envFieldset, form, html, revokeForm, scopesFieldset, scopesText, secretField, table } from './html';
import { PanelPage, refused } from './page';

const LIFETIMES = Object.keys(TEST_KEY_LIFETIMES) as (keyof typeof TEST_KEY_LIFETIMES)[];

export const keysPage: PanelPage = {
  slug: 'keys',
  title: 'API keys',
  async render(c) {
    const now = new Date();
    const keys = await listApiKeys(c.deps.db, c.accountId);
    const rows = keys.map((k) => {
      const state = keyState(k, now);
      return html`<tr>
        <td>${k.name ?? ''}</td>
        <td>${k.env}</td>
        <td>${scopesText(k.scopes, SCOPES)}</td>
        <td>${state}</td>
        <td>${k.created_at.toISOString().slice(0, 16).replace('T', ' ')}</td>
        <td>${k.expires_at ? k.expires_at.toISOString().slice(0, 16).replace('T', ' ') : 'never'}</td>
        <td>${state === 'active' ? revokeForm('/panel/keys/revoke', c.csrf, 'key_id', k._id, `key ${k.name ?? k._id}`) : ''}</td>
      </tr>`;
    });
    return html`<p>
        Keys authenticate calls to <code>/api/v1</code>: <code>Authorization: Bearer oo_…</code>. A test key works on the sandbox (the test
        environment) only and always expires.
      </p>
      ${table('Keys of this account', ['Name', 'Environment', 'Scopes', 'State', 'Created (UTC)', 'Expires (UTC)', 'Action'], rows)}
      <h2>Create a key</h2>
      ${form(
        '/panel/keys/create',
        c.csrf,
        html`<p><label for="key-name">Name</label> <input type="text" id="key-name" name="name" maxlength="100" /></p>
          ${envFieldset()}
          <p>
            <label for="key-expires">Expires after</label>
            <select id="key-expires" name="expires">
              ${LIFETIMES.map((l) => html`<option value="${l}" ${l === '7d' ? html` selected` : ''}>${l}</option>`)}
              <option value="never">never (live keys only)</option>
            </select>
          </p>
          ${scopesFieldset(SCOPES)}
          <button type="submit">Create key</button>`,
      )}`;
  },
  actions: {
    async create(c, f) {
      const env = f.get('env');
      const expires = f.get('expires') ?? '7d';
      const scopes = chosenScopes(f, SCOPES);
      if (env !== 'live' && env !== 'test') return refused('Choose the environment: live or test.');
      if (!scopes.length) return refused('Choose at least one scope.');
      if (expires !== 'never' && !(LIFETIMES as string[]).includes(expires)) return refused('Choose when the key expires.');
      if (env === 'test' && expires === 'never') return refused('Test keys always expire: choose 1h, 1d or 7d.');
      const name = (f.get('name') ?? '').trim().slice(0, 100) || undefined;
      try {
        const { apiKey, keyId } = await createApiKey(c.deps.db, {
          accountId: c.accountId,
          env,
          scopes,
          name,
          expiresInMs: expires === 'never' ? null : TEST_KEY_LIFETIMES[expires as keyof typeof TEST_KEY_LIFETIMES],
        });
        return {
          notice: {
            kind: 'ok',
            body: html`<p>Key <code>${keyId}</code> created. Copy its secret now: it is shown only this once.</p>
              ${secretField('Secret', apiKey)}`,
          },
          status: 201,
        };
      } catch (err) {
        if (err instanceof KeyInputError) return refused(err.message);
        throw err;
      }
    },
    async revoke(c, f) {
      const id = f.get('key_id') ?? '';
      // Only this account's keys: another account's key is as unknown as one that does not exist.
      const key = (await listApiKeys(c.deps.db, c.accountId)).find((k) => k._id === id);
      if (!key) return refused('No such key.', 404);
      await revokeApiKey(c.deps.db, key._id);
      return { notice: { kind: 'ok', body: html`Key ${key.name ?? key._id} revoked.` } };
    },
  },
};
