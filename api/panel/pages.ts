/**
 * The pages of the panel, in the order of its navigation. A page is one
 * module (see page.ts); adding one — applications, request logs — is writing
 * it and adding it here.
 */
import { contractTestsPage } from './contract-tests';
import { keysPage } from './keys';
import { PanelPage } from './page';
import { sandboxPage } from './sandbox';
import { webhooksPage } from './webhooks';

export const PANEL_PAGES: readonly PanelPage[] = [keysPage, sandboxPage, contractTestsPage, webhooksPage];
