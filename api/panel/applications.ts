/**
 * Applications: list, create (name, scopes, environment; the client secret
 * shown once with a copy button), revoke after a confirmation — through the
 * domain functions `admin app create|list|revoke` use.
 */
import { SCOPES } from '../../schemas/openapi/common';
import { APPLICATION_NAME_MAX, createApplication, listApplications, revokeApplication } from '../../domain/developer/applications';
import { chosenScopes, envFieldset, form, html, revokeForm, scopesFieldset, scopesText, secretField, table } from './html';
import { PanelPage, refused } from './page';

const minute = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '');

export const applicationsPage: PanelPage = {
  slug: 'applications',
  title: 'Applications',
  async render(c) {
    const apps = await listApplications(c.deps.db, c.accountId);
    const rows = apps.map(
      (a) =>
        html`<tr>
          <td>${a.name}</td>
          <td><code>${a.client_id}</code></td>
          <td>${scopesText(a.scopes, SCOPES)}</td>
          <td>${a.env}</td>
          <td>${minute(a.created_at)}</td>
          <td>${a.revoked_at ? minute(a.revoked_at) : 'no'}</td>
          <td>
            ${a.state === 'active' ? revokeForm('/panel/applications/revoke', c.csrf, 'application_id', a.id, `application ${a.name}`) : ''}
          </td>
        </tr>`,
    );
    return html`<p>
        An application exchanges its <code>client_id</code> and <code>client_secret</code> for a bearer token valid one hour:
        <code>POST /api/developer/oauth/token</code> (OAuth 2.0 client credentials). The token works on <code>/api/v1</code> within the
        application's scopes and environment; revoking the application makes every token issued to it fail at once.
      </p>
      ${table('Applications of this account', ['Name', 'client_id', 'Scopes', 'Environment', 'Created (UTC)', 'Revoked (UTC)', 'Action'], rows)}
      <h2>Create an application</h2>
      ${form(
        '/panel/applications/create',
        c.csrf,
        html`<p>
            <label for="app-name">Name</label>
            <input type="text" id="app-name" name="name" maxlength="${APPLICATION_NAME_MAX}" required />
          </p>
          ${envFieldset()} ${scopesFieldset(SCOPES)}
          <button type="submit">Create application</button>`,
      )}`;
  },
  actions: {
    async create(c, f) {
      const env = f.get('env');
      if (env !== 'live' && env !== 'test') return refused('Choose the environment: live or test.');
      const scopes = chosenScopes(f, SCOPES);
      if (!scopes.length) return refused('Choose at least one scope.');
      // createApplication checks the name and the scopes (400 validation_failed, shown as the notice).
      const { application, clientSecret } = await createApplication(
        c.deps.db,
        { accountId: c.accountId, env },
        { name: f.get('name') ?? '', scopes },
      );
      return {
        notice: {
          kind: 'ok',
          body: html`<p>
              Application ${application.name} created: <code>client_id</code> <code id="new-client-id">${application.client_id}</code>. Copy its
              client secret now: it is shown only this once.
            </p>
            ${secretField('Client secret', clientSecret)}`,
        },
        status: 201,
      };
    },
    async revoke(c, f) {
      const id = f.get('application_id') ?? '';
      // Only this account's applications: another account's is as unknown as one that does not exist.
      const app = (await listApplications(c.deps.db, c.accountId)).find((a) => a.id === id);
      if (!app) return refused('No such application.', 404);
      if (app.state === 'revoked') return { notice: { kind: 'ok', body: html`Application ${app.name} was revoked already.` } };
      if (f.get('confirm') !== 'yes') {
        // First the question, with the same form confirmed: nothing changes until it is answered.
        return {
          notice: {
            kind: 'error',
            body: html`<p>Revoke application ${app.name} (<code>${app.client_id}</code>)? Every token issued to it stops working at once.</p>
              ${form(
                '/panel/applications/revoke',
                c.csrf,
                html`<input type="hidden" name="application_id" value="${app.id}" /><input type="hidden" name="confirm" value="yes" /><button
                    type="submit"
                    class="danger"
                  >
                    Yes, revoke ${app.name}
                  </button>
                  <a href="/panel/applications">No, keep it</a>`,
              )}`,
          },
        };
      }
      await revokeApplication(c.deps.db, { accountId: c.accountId, env: app.env }, app.id);
      return { notice: { kind: 'ok', body: html`Application ${app.name} revoked: its tokens no longer work.` } };
    },
  },
};
