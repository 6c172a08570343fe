/** The sandbox: what is seeded, what the test environment holds now, and the reset button. */
import { TENANT_COLLECTIONS, crossTenantCollection } from '../../domain/db';
import { resetSandbox } from '../../domain/sandbox/reset';
import { SANDBOX_SEED, sandboxSeedOf } from '../../domain/sandbox/seed';
import { form, html, table } from './html';
import { PanelPage } from './page';

export const sandboxPage: PanelPage = {
  slug: 'sandbox',
  title: 'Sandbox',
  async render(c) {
    const seed = await sandboxSeedOf(c.deps.db, c.accountId);
    const s = SANDBOX_SEED;
    const counts = await Promise.all(
      TENANT_COLLECTIONS.map(
        async (name) => [name, await crossTenantCollection(c.deps.db, name).countDocuments({ account_id: c.accountId, env: 'test' })] as const,
      ),
    );
    const rows: [string, string, string | undefined][] = [
      ['Channel', `${s.channel.name} (type ${s.channel.type})`, seed?.channel_id],
      ['Segment', `${s.segment.name}, slug ${s.segment.slug}`, seed?.segment_id],
      ['Group', `${s.group.name}, in the segment, on the sandbox channel`, seed?.group_id],
      ['Coupon', `${s.coupon.code}: ${s.coupon.description}`, seed?.coupon_id],
      ['Offer', `${s.offer.title}: ${s.offer.url}, ${s.offer.price} (was ${s.offer.original_price}) ${s.offer.currency}`, seed?.offer_id],
      ['Template', `${s.template.name}, the segment's default`, seed?.template_id],
      ['Publication', `the offer to the group, Idempotency-Key ${s.publicationKey}`, seed?.publication_id],
    ];
    return html`<p>
        The test environment (keys <code>oo_test_…</code>) starts with this sample data, made by the same functions as real data. Publications
        and replies in it are recorded by the sandbox connector, never sent.
      </p>
      ${table(
        'The seed',
        ['Resource', 'What', 'Id now'],
        rows.map(
          ([what, about, id]) =>
            html`<tr>
              <th scope="row">${what}</th>
              <td>${about}</td>
              <td><code>${id ?? 'not seeded'}</code></td>
            </tr>`,
        ),
      )}
      ${table(
        'Documents in the test environment now',
        ['Collection', 'Documents'],
        counts
          .filter(([, n]) => n > 0)
          .map(
            ([name, n]) =>
              html`<tr>
                <td>${name}</td>
                <td>${n}</td>
              </tr>`,
          ),
      )}
      <h2>Reset</h2>
      <p>
        Deletes everything in the test environment — its Temporal Schedules and running workflows too — and seeds it again. Live data is not
        touched; keys stay.
      </p>
      ${form('/panel/sandbox/reset', c.csrf, html`<button type="submit" class="danger">Reset the sandbox</button>`)}`;
  },
  actions: {
    async reset(c) {
      const r = await resetSandbox(c.deps, c.accountId);
      const removed = Object.values(r.removed).reduce((a, b) => a + (b ?? 0), 0);
      return {
        notice: {
          kind: 'ok',
          body: html`Sandbox reset: ${removed} documents deleted, ${r.schedules_deleted} Temporal Schedules deleted, ${r.workflows_terminated}
          workflows terminated; seeded again.`,
        },
      };
    },
  },
};
