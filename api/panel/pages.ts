/**
 * The pages of the panel, in the order of its navigation. A page is one
 * module (see page.ts); adding one is writing it and adding it here.
 */
import { applicationsPage } from './applications';
import { channelsPage } from './channels';
import { contractTestsPage } from './contract-tests';
import { keysPage } from './keys';
import { logsPage } from './logs';
import { PanelPage } from './page';
import { sandboxPage } from './sandbox';
import { webhooksPage } from './webhooks';

export const PANEL_PAGES: readonly PanelPage[] = [
  keysPage,
  applicationsPage,
  logsPage,
  sandboxPage,
  contractTestsPage,
  webhooksPage,
  channelsPage,
];
