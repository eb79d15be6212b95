/**
 * `trading_portfolios`: one document per portfolio, for the revenue
 * dashboard's `trading` block. Fed by `PortfolioOpened` {portfolio_id,
 * owner_id?, name?} and `PortfolioPnlRecorded` {portfolio_id, pnl} (the pnl
 * to date, a number). No context records these yet: the read model is empty.
 */
import type { RecordedEvent } from '../infrastructure/event-store/event-store.port';
import type { ProjectionDefinition, ProjectionWriter } from '../infrastructure/projections/projection';
import type { Doc } from '../infrastructure/read-store/read-store.port';
import { applyOnce } from './support/apply-once';

export const TRADING_PORTFOLIOS = 'trading_portfolios';

export interface TradingPortfolioDoc extends Doc {
  portfolio_id: string;
  owner_id?: string | null;
  name?: string | null;
  pnl?: number;
}

export const tradingProjection: ProjectionDefinition = {
  name: 'trading',
  version: 1,
  eventTypes: ['PortfolioOpened', 'PortfolioPnlRecorded'],
  collections: [TRADING_PORTFOLIOS],
  apply(event: RecordedEvent, writer: ProjectionWriter): void {
    const data = event.data as { portfolio_id?: unknown; owner_id?: unknown; name?: unknown; pnl?: unknown };
    if (typeof data.portfolio_id !== 'string') return;
    const set: Record<string, unknown> = { portfolio_id: data.portfolio_id };
    if (event.type === 'PortfolioOpened') {
      set.owner_id = typeof data.owner_id === 'string' ? data.owner_id : null;
      set.name = typeof data.name === 'string' ? data.name : null;
    } else if (typeof data.pnl === 'number') {
      set.pnl = data.pnl;
    }
    const update: Record<string, unknown> = { $set: set };
    if (event.type === 'PortfolioOpened') update.$setOnInsert = { pnl: 0 };
    applyOnce(writer, TRADING_PORTFOLIOS, data.portfolio_id, event, update);
  },
};
