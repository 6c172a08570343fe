import { Db } from 'mongodb';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  IDEMPOTENCY_KEY_MAX,
  releaseIdempotencyKey,
  requestFingerprint,
  StoredAnswer,
} from '../../domain/developer/idempotency';
import { IDEMPOTENCY_KEY_SCHEMA } from '../../schemas/openapi/common';
import { documentedError, HttpError } from '../errors';
import { AppMiddleware, AsyncStep, authOf } from './state';
import { validationFailed } from './validate';

const KEY_PATTERN = new RegExp(IDEMPOTENCY_KEY_SCHEMA.pattern);

/** The answer a POST gave, as kept for replay: its status and body without the request id. */
function answerOf(status: number, body: unknown): StoredAnswer {
  const { request_id: _requestId, ...rest } = (body ?? {}) as Record<string, unknown>;
  return { status, body: rest };
}

/**
 * `Idempotency-Key` on a POST (after authentication and validation): the
 * first answer to a key (2xx or 4xx) is kept 24 h per credential and a repeat
 * of the same request gets it again (`Idempotent-Replayed: true`, with its
 * own request id); another request under the key is a 409
 * `idempotency_key_reused`, a repeat while the first runs a 409
 * `idempotency_in_progress`. A 5xx keeps nothing: a repeat runs again.
 * Without the header, nothing changes.
 */
export function idempotency(db: Db): AppMiddleware {
  const keyed = withKey(db);
  // Without the header: no turn of its own.
  return (ctx, next) => (ctx.headers['idempotency-key'] === undefined ? next() : keyed(ctx, next));
}

/** idempotency for a request that sends the header. */
function withKey(db: Db): AsyncStep {
  return async (ctx, next) => {
    const key = ctx.get('Idempotency-Key');
    if (key.length > IDEMPOTENCY_KEY_MAX) {
      throw validationFailed([
        { location: 'header', field: 'Idempotency-Key', rule: 'maxLength', message: `must be at most ${IDEMPOTENCY_KEY_MAX} characters` },
      ]);
    }
    if (!KEY_PATTERN.test(key)) {
      throw validationFailed([
        {
          location: 'header',
          field: 'Idempotency-Key',
          rule: 'pattern',
          message: 'must be 1 or more visible ASCII characters (spaces inside only)',
        },
      ]);
    }
    const { credential } = authOf(ctx.state);
    const claim = await claimIdempotencyKey(db, credential.id, key, requestFingerprint(ctx.method, ctx.path, ctx.state.body));
    if (claim.kind === 'mismatch') {
      throw new HttpError('idempotency_key_reused', 'This Idempotency-Key was used for a different request (method, path or body).');
    }
    if (claim.kind === 'running') {
      throw new HttpError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still running; repeat it once it has answered (a key whose request was cut ' +
          'short, e.g. answered 503, is free again within a minute).',
      );
    }
    if (claim.kind === 'replay') {
      ctx.status = claim.answer.status;
      ctx.body = { ...claim.answer.body, request_id: ctx.state.requestId };
      ctx.set('Idempotent-Replayed', 'true');
      return;
    }
    try {
      await next();
    } catch (err) {
      const known = documentedError(err);
      if (known && known.status < 500) {
        const { code, message, details } = known;
        await completeIdempotencyKey(db, claim, answerOf(known.status, { code, message, ...(details ? { details } : {}) }));
      } else {
        await releaseIdempotencyKey(db, claim);
      }
      throw err;
    }
    if (ctx.status < 500) await completeIdempotencyKey(db, claim, answerOf(ctx.status, ctx.body));
    else await releaseIdempotencyKey(db, claim);
  };
}
