/** Contract tests: run them against this API in the sandbox, and their history. */
import { runContractTests } from '../../domain/contract-tests/runner';
import { listRuns } from '../../domain/contract-tests/store';
import { form, html, table } from './html';
import { PanelPage } from './page';

export const contractTestsPage: PanelPage = {
  slug: 'contract-tests',
  title: 'Contract tests',
  async render(c) {
    const runs = await listRuns(c.deps.db, c.accountId, 20);
    return html`<p>
        A run checks this API against its own contract in your sandbox, with short-lived test keys it revokes afterwards: routes and methods,
        scopes, event schemas, signed webhook deliveries (from the CLI, which starts a receiver), enum values, and that the sandbox never shows
        live data.
      </p>
      ${form('/panel/contract-tests/run', c.csrf, html`<button type="submit">Run the contract tests</button>`)}
      <h2>History</h2>
      ${
        runs.length
          ? table(
              'Past runs, newest first',
              ['Started (UTC)', 'Result', 'Duration', 'From', 'Checks'],
              runs.map(
                (r) =>
                  html`<tr>
                    <td>${r.started_at.toISOString().slice(0, 19).replace('T', ' ')}</td>
                    <td class="${r.result}">${r.result}</td>
                    <td>${(r.duration_ms / 1000).toFixed(1)} s</td>
                    <td>${r.trigger}</td>
                    <td>
                      <ul>
                        ${r.checks.map(
                          (ch) =>
                            html`<li>
                              <span class="${ch.result}">${ch.result}</span> ${ch.name} (${ch.assertions}
                              checked)${ch.note ? html`: ${ch.note}` : ''}${
                                ch.failures.length
                                  ? html`<details>
                                      <summary>${ch.failures.length} failures</summary>
                                      <ul>
                                        ${ch.failures.map((f) => html`<li>${f}</li>`)}
                                      </ul>
                                    </details>`
                                  : ''
                              }
                            </li>`,
                        )}
                      </ul>
                    </td>
                  </tr>`,
              ),
            )
          : html`<p>No run yet.</p>`
      }`;
  },
  actions: {
    async run(c) {
      const run = await runContractTests(c.deps.db, c.accountId, { baseUrl: `${c.origin}/api/v1`, trigger: 'panel' });
      return {
        notice: {
          kind: run.result === 'passed' ? 'ok' : 'error',
          body: html`Run ${run._id}: ${run.result} in ${(run.duration_ms / 1000).toFixed(1)} s.`,
        },
      };
    },
  },
};
