/**
 * `POST /postbacks/{integration_id}`: where an affiliate network reports a
 * commission (docs/guides/commissions.md). Outside /api/v1: it is authenticated by
 * the endpoint's own secret — an HMAC-SHA256 signature of the raw body in
 * `X-Offerops-Signature: sha256=<hex>`, or `?token=<secret>` — not by an API
 * key. A bad proof is a 401 `invalid_signature`, logged with the endpoint and
 * the reason, never the secret. Answers 201 when the report created the
 * commission, 200 otherwise (updated, a late report kept in history, a replay).
 */
import { commitEvents } from '../domain/events/commit';
import { applyReport, ReportError, toCommission } from '../domain/commissions/service';
import { verifyPostback } from '../domain/commissions/postbacks';
import { reportOf } from '../domain/commissions/report';
import { HttpError } from './errors';
import { AppDeps } from './handlers/types';
import { bodyText, parseJson, readRaw } from './middleware/body';
import { AppMiddleware } from './middleware/state';
import { validationFailed } from './middleware/validate';

export const POSTBACK_PATH = /^\/postbacks\/([^/]+)$/;

/** A postback is one small JSON object. */
export const POSTBACK_BODY_LIMIT = 16 * 1024;

export function postbacks(deps: AppDeps): AppMiddleware {
  return async (ctx, next) => {
    const match = POSTBACK_PATH.exec(ctx.path);
    if (!match) {
      await next();
      return;
    }
    if (ctx.method !== 'POST') throw new HttpError('method_not_allowed', `${ctx.method} is not allowed here; use POST.`, { Allow: 'POST' });
    const id = decodeURIComponent(match[1]!);
    const raw = ctx.req.readableEnded ? Buffer.alloc(0) : await readRaw(ctx.req, POSTBACK_BODY_LIMIT);
    const token = typeof ctx.query.token === 'string' ? ctx.query.token : null;
    const verified = await verifyPostback(deps.db, id, raw, { signature: ctx.get('X-Offerops-Signature') || null, token }, deps.secretKey);
    if ('reason' in verified) {
      deps.logger.warn({ postback_endpoint: id, reason: verified.reason, request_id: ctx.state.requestId }, 'postback refused');
      // An unknown endpoint and a bad proof answer alike: the endpoint tells nobody which ones exist.
      throw new HttpError('invalid_signature', 'Unknown postback endpoint, or a bad signature or token.');
    }
    if (!/^application\/json\s*(;|$)/i.test(ctx.get('Content-Type'))) {
      throw new HttpError('unsupported_media_type', 'Send the postback as Content-Type: application/json.');
    }
    const body = parseJson(bodyText(raw));
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw validationFailed([{ location: 'body', field: '', rule: 'type', message: 'must be a JSON object' }]);
    }
    const { endpoint } = verified;
    const tenant = { accountId: endpoint.account_id, env: endpoint.env };
    const parsed = reportOf(body as Record<string, unknown>, endpoint.marketplace, 'postback');
    if ('problems' in parsed) {
      throw validationFailed(parsed.problems.map((p) => ({ location: 'body', field: p.field, rule: 'report', message: p.message })));
    }
    let result;
    try {
      result = await applyReport(deps.db, tenant, parsed.report);
    } catch (err) {
      if (err instanceof ReportError) throw new HttpError('conflict', err.message);
      throw err;
    }
    if (result.outcome !== 'unchanged') await commitEvents(deps, 'commissions', result.commission._id);
    ctx.status = result.outcome === 'created' ? 201 : 200;
    ctx.body = { data: { outcome: result.outcome, commission: toCommission(result.commission) }, request_id: ctx.state.requestId };
  };
}
