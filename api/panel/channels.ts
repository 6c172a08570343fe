/**
 * Channels: each environment's channels with the state of their gateway's
 * session (connected, disconnected or unknown: a WhatsApp gateway's, as its
 * webhook or a check reported it; unknown for the others) and when it
 * changed. Never a gateway URL, session, address or token.
 */
import { listChannels } from '../../domain/channels/store';
import { Environment } from '../../domain/db';
import { countGroupsByChannel } from '../../domain/groups/store';
import { html, Html, table } from './html';
import { PageContext, PanelPage } from './page';

const ENVS: Environment[] = ['live', 'test'];

async function section(c: PageContext, env: Environment): Promise<Html> {
  const tenant = { accountId: c.accountId, env };
  const channels = await listChannels(c.deps.db, tenant);
  const groups = await countGroupsByChannel(
    c.deps.db,
    tenant,
    channels.map((ch) => ch._id),
  );
  const rows = channels.map((ch) => {
    const state = ch.state ?? 'unknown';
    return html`<tr>
      <td>${ch.name}</td>
      <td><code>${ch._id}</code></td>
      <td>${ch.type}</td>
      <td class="state-${state}">${state}</td>
      <td>${ch.state_changed_at ? ch.state_changed_at.toISOString().slice(0, 19).replace('T', ' ') : '—'}</td>
      <td>${groups.get(ch._id) ?? 0}</td>
      <td>${ch.min_interval_ms} ms</td>
    </tr>`;
  });
  return html`<h2>${env}</h2>
    ${table(
      `Channels of the ${env} environment`,
      ['Name', 'Id', 'Type', 'State', 'State since (UTC)', 'Groups', 'Min. interval'],
      rows,
      `No channel in the ${env} environment.`,
    )}`;
}

export const channelsPage: PanelPage = {
  slug: 'channels',
  title: 'Channels',
  async render(c) {
    return html`<p>
        The chat channels offerops sends through. A WhatsApp gateway's channel (Evolution API, WAHA) is <em>connected</em> while its session is;
        a publication to one that is <em>disconnected</em> waits for it. Operators connect and change channels with
        <code>npx offerops admin channel …</code>.
      </p>
      ${await Promise.all(ENVS.map((env) => section(c, env)))}`;
  },
  actions: {},
};
