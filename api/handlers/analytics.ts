import {
  groupsReport,
  heatmapReport,
  offersReport,
  ReportQuery,
  sourcesReport,
  summaryReport,
  timeseriesReport,
} from '../../domain/analytics/service';
import { Handler, listReply, pageOf } from './types';

/** The window and the bots' switch (the contract gives both their defaults). */
const reportOf = (query: { days?: number; include_bots?: boolean }): ReportQuery => ({ days: query.days!, include_bots: query.include_bots! });

export const analyticsSummary: Handler<'analytics_summary'> = async (req, deps) => ({
  body: { data: await summaryReport(deps.db, req.tenant, reportOf(req.query)) },
});

export const analyticsTimeseries: Handler<'analytics_timeseries'> = async (req, deps) => ({
  body: { data: await timeseriesReport(deps.db, req.tenant, reportOf(req.query)) },
});

export const analyticsGroups: Handler<'analytics_groups'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total, window } = await groupsReport(deps.db, req.tenant, reportOf(req.query), page);
  return listReply(items, total, page, { window });
};

export const analyticsOffers: Handler<'analytics_offers'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total, window } = await offersReport(deps.db, req.tenant, { ...reportOf(req.query), sort: req.query.sort! }, page);
  return listReply(items, total, page, { window });
};

export const analyticsSources: Handler<'analytics_sources'> = async (req, deps) => {
  const page = pageOf(req.query);
  const { items, total, window } = await sourcesReport(deps.db, req.tenant, reportOf(req.query), page);
  return listReply(items, total, page, { window });
};

export const analyticsHeatmap: Handler<'analytics_heatmap'> = async (req, deps) => ({
  body: { data: await heatmapReport(deps.db, req.tenant, reportOf(req.query)) },
});
