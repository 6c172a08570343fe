/** Webhooks: each environment's webhooks with their recent deliveries (from Temporal) and their attempts; redeliver a failed one. */
import { Environment } from '../../domain/db';
import { listDeliveries, redeliver } from '../../domain/webhooks/service';
import { listWebhooks } from '../../domain/webhooks/store';
import { form, html, Html, table } from './html';
import { PageContext, PanelPage, refused } from './page';

const ENVS: Environment[] = ['live', 'test'];
const DELIVERIES_SHOWN = 10;

async function section(c: PageContext, env: Environment): Promise<Html> {
  const tenant = { accountId: c.accountId, env };
  const { items } = await listWebhooks(c.deps.db, tenant, {}, { limit: 20, offset: 0 });
  if (!items.length)
    return html`<h2>${env}</h2>
      <p>No webhook in the ${env} environment.</p>`;
  const parts = await Promise.all(
    items.map(async (w) => {
      const { items: deliveries, total } = await listDeliveries(c.deps, tenant, w._id, {}, { limit: DELIVERIES_SHOWN, offset: 0 });
      const rows = deliveries.map(
        (d) =>
          html`<tr>
            <td>${d.event_kind}</td>
            <td><code>${d.event_id}</code></td>
            <td>${d.state}</td>
            <td>
              ${
                d.attempts.length
                  ? html`<ol>
                      ${d.attempts.map((a) => html`<li>${a.at.slice(0, 19).replace('T', ' ')}: ${a.http_status ?? a.error ?? 'no answer'} (${a.duration_ms} ms)</li>`)}
                    </ol>`
                  : 'none yet'
              }
            </td>
            <td>
              ${d.state === 'failed' ? form('/panel/webhooks/redeliver', c.csrf, html`<input type="hidden" name="env" value="${env}" /><input type="hidden" name="webhook_id" value="${w._id}" /><input type="hidden" name="delivery_id" value="${d.id}" /><button type="submit" aria-label="Redeliver ${d.event_kind} ${d.event_id}">Redeliver</button>`) : ''}
            </td>
          </tr>`,
      );
      return html`<h3><code>${w._id}</code> → ${w.url} (${w.state})</h3>
        ${table(`Latest deliveries (${deliveries.length} of ${total})`, ['Event', 'Event id', 'State', 'Attempts (UTC)', 'Action'], rows)}`;
    }),
  );
  return html`<h2>${env}</h2>
    ${parts}`;
}

export const webhooksPage: PanelPage = {
  slug: 'webhooks',
  title: 'Webhooks',
  async render(c) {
    return html`<p>
        Deliveries are Temporal workflows; each attempt is listed with the receiver's HTTP status. A failed delivery can be delivered again (same
        <code>webhook-id</code>, so a receiver can tell).
      </p>
      ${await Promise.all(ENVS.map((env) => section(c, env)))}`;
  },
  actions: {
    async redeliver(c, f) {
      const env = f.get('env');
      if (env !== 'live' && env !== 'test') return refused('Unknown environment.');
      await redeliver(c.deps, { accountId: c.accountId, env }, f.get('webhook_id') ?? '', f.get('delivery_id') ?? '');
      return { notice: { kind: 'ok', body: html`Delivery started again.` } };
    },
  },
};
