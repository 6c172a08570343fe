/** What a page of the panel is: a module with a slug, a title, a render and its form actions. */
import { PanelSession } from '../../domain/panel/auth';
import { AppDeps } from '../handlers/types';
import { html, Html, Notice } from './html';

export interface PageContext {
  deps: AppDeps;
  session: PanelSession;
  accountId: string;
  /** The API's own origin as the browser reached it, e.g. `http://127.0.0.1:8080`. */
  origin: string;
  csrf: string;
  /** The query string of a GET (a page's filters); empty for a form's answer. */
  query: URLSearchParams;
}

/** A file a page offers for download (`GET /panel/<slug>/<name>`), written as its chunks come: never whole in memory. */
export interface Download {
  filename: string;
  type: string;
  chunks: AsyncIterable<string>;
}

/** What an action answers: a notice shown above the page (a secret shown once goes here), and the status. */
export interface ActionResult {
  notice: Notice;
  status?: number;
}

/** An action refused: the reason as an error notice, with its status. */
export const refused = (message: string, status = 400): ActionResult => ({ notice: { kind: 'error', body: html`${message}` }, status });

export interface PanelPage {
  /** `/panel/<slug>`; its actions post to `/panel/<slug>/<action>`. */
  slug: string;
  title: string;
  render(c: PageContext): Promise<Html>;
  actions: Record<string, (c: PageContext, form: URLSearchParams) => Promise<ActionResult>>;
  /** Downloads by name; one throws a DomainError (before any chunk) for bad parameters. */
  downloads?: Record<string, (c: PageContext) => Promise<Download>>;
}
