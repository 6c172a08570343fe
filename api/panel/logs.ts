/**
 * Request logs: the account's v1 requests, newest first, filtered by
 * credential (its keys and applications), status class and time, a page at
 * a time (keyset cursor); the same filters as a CSV download streamed in
 * batches — the export `admin logs export` writes. Logs are written in
 * batches (every half second): the page shows what was stored.
 */
import { listApiKeys } from '../../domain/accounts/store';
import { listApplications } from '../../domain/developer/applications';
import { decodeCursor, listRequestLogs, RequestLogFilter, requestLogCsv } from '../../domain/developer/request-logs';
import { invalid } from '../../domain/errors';
import { durationText, html, Html, table } from './html';
import { PageContext, PanelPage } from './page';

const PAGE_SIZE = 50;
const STATUS_CLASSES = ['2', '4', '5'] as const;

interface Credential {
  id: string;
  label: string;
}

/** The account's keys and applications, for the credential filter and the table. */
async function credentialsOf(c: PageContext): Promise<Credential[]> {
  const [keys, apps] = await Promise.all([listApiKeys(c.deps.db, c.accountId), listApplications(c.deps.db, c.accountId)]);
  return [
    ...keys.map((k) => ({ id: k._id, label: `key ${k.name ?? k._id} (${k.env})` })),
    ...apps.map((a) => ({ id: a.id, label: `application ${a.name} (${a.env})` })),
  ];
}

/** A time field: `YYYY-MM-DDTHH:MM` (what a datetime-local input sends), read as UTC, or a full ISO 8601 instant. */
function instant(field: string, value: string | null): Date | undefined {
  if (!value) return undefined;
  const at = new Date(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? `${value}Z` : value);
  if (Number.isNaN(at.getTime()) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw invalid('validation_failed', `${field} is a date and time (UTC), e.g. 2026-11-24T08:00.`);
  }
  return at;
}

/** The filters of a query string, checked: a credential of this account, a status class, a time span. */
function filterOf(query: URLSearchParams, credentials: Credential[]): RequestLogFilter {
  const filter: RequestLogFilter = {};
  const credential = query.get('credential');
  if (credential) {
    if (!credentials.some((k) => k.id === credential)) {
      throw invalid('validation_failed', 'Choose one of this account’s keys or applications.');
    }
    filter.credentialId = credential;
  }
  const status = query.get('status');
  if (status) {
    if (!(STATUS_CLASSES as readonly string[]).includes(status)) {
      throw invalid('validation_failed', 'The status class is 2xx, 4xx or 5xx.');
    }
    filter.statusClass = Number(status) as 2 | 4 | 5;
  }
  const since = instant('since', query.get('since'));
  const until = instant('until', query.get('until'));
  if (since && until && since >= until) {
    throw invalid('validation_failed', 'Since must be before until.');
  }
  if (since) filter.since = since;
  if (until) filter.until = until;
  return filter;
}

/** The query string of the filters (without a cursor), for the CSV link and the next page. */
function filterQuery(query: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const name of ['credential', 'status', 'since', 'until']) {
    const value = query.get(name);
    if (value) out.set(name, value);
  }
  return out;
}

const selected = (on: boolean) => (on ? new Html(' selected') : '');

function filterForm(query: URLSearchParams, credentials: Credential[]): Html {
  const credential = query.get('credential') ?? '';
  const status = query.get('status') ?? '';
  return html`<form method="get" action="/panel/logs" class="filters">
    <fieldset>
      <legend>Filters</legend>
      <label for="log-credential">Credential</label>
      <select id="log-credential" name="credential">
        <option value="">all</option>
        ${credentials.map((k) => html`<option value="${k.id}" ${selected(k.id === credential)}>${k.label}</option>`)}
      </select>
      <label for="log-status">Status</label>
      <select id="log-status" name="status">
        <option value="">all</option>
        ${STATUS_CLASSES.map((s) => html`<option value="${s}" ${selected(s === status)}>${s}xx</option>`)}
      </select>
      <label for="log-since">Since (UTC)</label>
      <input type="datetime-local" id="log-since" name="since" value="${query.get('since') ?? ''}" />
      <label for="log-until">Until (UTC)</label>
      <input type="datetime-local" id="log-until" name="until" value="${query.get('until') ?? ''}" />
      <button type="submit">Filter</button>
    </fieldset>
  </form>`;
}

export const logsPage: PanelPage = {
  slug: 'logs',
  title: 'Request logs',
  async render(c) {
    const credentials = await credentialsOf(c);
    const intro = html`<p>
        Every <code>/api/v1</code> request a key or an application made: time, request id, method, route template, status, duration, credential
        and environment — never a secret, a body or a query value. Kept 90 days; written in batches, so a request shows here within a second.
      </p>
      ${filterForm(c.query, credentials)}`;
    // Bad filters throw: the panel answers 400 with the page unfiltered and the reason.
    const filter = filterOf(c.query, credentials);
    const cursor = c.query.get('cursor');
    if (cursor && !decodeCursor(cursor)) throw invalid('validation_failed', 'This page link is not valid: start from the newest.');
    const { items, next } = await listRequestLogs(c.deps.db, c.accountId, filter, { limit: PAGE_SIZE, cursor, order: 'desc' });
    const names = new Map(credentials.map((k) => [k.id, k.label]));
    const filters = filterQuery(c.query);
    const csv = `/panel/logs/export.csv${filters.toString() ? `?${filters.toString()}` : ''}`;
    const nextLink = next ? `/panel/logs?${new URLSearchParams([...filters, ['cursor', next]]).toString()}` : null;
    return html`${intro}
      <p><a href="${csv}" download>Download CSV</a> (these filters, oldest first, every matching request)</p>
      ${table(
        `Requests, newest first${cursor ? ' (older page)' : ''}`,
        ['Time (UTC)', 'Request id', 'Method', 'Route', 'Status', 'Duration', 'Credential', 'Environment'],
        items.map(
          (r) =>
            html`<tr>
              <td>${r.time.toISOString().slice(0, 23).replace('T', ' ')}</td>
              <td><code>${r.request_id}</code></td>
              <td>${r.method}</td>
              <td><code>${r.route}</code></td>
              <td>${r.status}</td>
              <td>${durationText(r.duration_ms)}</td>
              <td title="${r.credential_id}">${names.get(r.credential_id) ?? r.credential_id}</td>
              <td>${r.env}</td>
            </tr>`,
        ),
        filters.toString() ? 'No request matches these filters.' : 'No request yet.',
      )}
      <nav aria-label="Pages of the log">
        ${cursor ? html`<a href="/panel/logs${filters.toString() ? `?${filters.toString()}` : ''}">Newest</a>` : ''}
        ${nextLink ? html`<a href="${nextLink}" rel="next">Older</a>` : ''}
      </nav>`;
  },
  actions: {},
  downloads: {
    async 'export.csv'(c) {
      const filter = filterOf(c.query, await credentialsOf(c));
      return { filename: 'request-logs.csv', type: 'text/csv; charset=utf-8', chunks: requestLogCsv(c.deps.db, c.accountId, filter) };
    },
  },
};
