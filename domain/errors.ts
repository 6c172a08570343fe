/**
 * Errors of the business rules. Each carries a code of the contract's error
 * table (schemas/openapi/common.ts); the HTTP layer turns the code into its
 * status in one place (api/middleware/errors.ts), and activities record or
 * rethrow them as they are. Nothing here knows about HTTP.
 */
import { ErrorCode } from '../schemas/openapi/common';

/** One invalid field of a request: where, which, the rule it broke and why, in words a client can act on. */
export interface ErrorDetail {
  location: 'path' | 'query' | 'body' | 'header';
  field: string;
  rule: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

/** No such resource for this tenant (another account's ids included). */
export const notFound = (what: string, id: string): DomainError =>
  new DomainError('not_found', `No ${what} ${JSON.stringify(id)} in this account and environment.`);

/** The current state prevents the change. */
export const conflict = (code: ErrorCode, message: string): DomainError => new DomainError(code, message);

/** The request is not acceptable as it is (`details` names each field). */
export const invalid = (code: ErrorCode, message: string, details?: ErrorDetail[]): DomainError => new DomainError(code, message, details);

/** A body field names an id this tenant does not have. */
export const unknownReference = (field: string, what: string, id: string): DomainError =>
  invalid('unknown_reference', `No ${what} ${JSON.stringify(id)} in this account and environment.`, [
    { location: 'body', field, rule: 'exists', message: `does not name a ${what} of this account` },
  ]);

/** An optimistic write lost: the resource changed between this request's read and its write. */
export const changedMeanwhile = (what: string): DomainError =>
  conflict('conflict', `The ${what} changed while this request ran; read it again and retry.`);

/**
 * What a workflow's step cannot get past however often it is tried: what it
 * is about is gone (a publication, a message), or its input is refused (a
 * journey block). The activity fails for good, `kind` saying why.
 */
export class PermanentFailure extends Error {
  constructor(
    message: string,
    readonly kind: string,
  ) {
    super(message);
    this.name = 'PermanentFailure';
  }
}
