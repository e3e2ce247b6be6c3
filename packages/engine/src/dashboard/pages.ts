/** Every page of the dashboard, by its first path segment (`''` is the overview). */
import type { Page } from './context.js';
import { accessPage, agentsPage } from './pages/access.js';
import { cardsPage } from './pages/cards.js';
import { customersPage } from './pages/customers.js';
import { feedPage, overviewPage, sandboxPage } from './pages/overview.js';
import { stablecoinsPage } from './pages/stablecoins.js';
import { transactionsPage } from './pages/transactions.js';
import { eventsPage, webhooksPage } from './pages/webhooks.js';

export const PAGES: Readonly<Record<string, Page>> = {
  '': overviewPage,
  customers: customersPage,
  transactions: transactionsPage,
  cards: cardsPage,
  stablecoins: stablecoinsPage,
  access: accessPage,
  agents: agentsPage,
  webhooks: webhooksPage,
  events: eventsPage,
  feed: feedPage,
  sandbox: sandboxPage,
};
