/**
 * Errors the HTTP layer raises itself (authentication, limits, routing, body
 * parsing, validation), with the headers they need. Business errors are
 * `DomainError`s (domain/errors.ts); both map to a status by their code.
 */
import { ERROR_STATUS, ErrorCode } from '../schemas/openapi/common';
import { DomainError, ErrorDetail } from '../domain/errors';

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** The status, body fields and headers of an error the contract documents; null for anything else (a bug: 500). */
export function documentedError(
  err: unknown,
): { status: number; code: ErrorCode; message: string; details?: ErrorDetail[]; headers: Record<string, string> } | null {
  if (!(err instanceof HttpError || err instanceof DomainError)) return null;
  return {
    status: ERROR_STATUS[err.code],
    code: err.code,
    message: err.message,
    ...(err.details ? { details: err.details } : {}),
    headers: err instanceof HttpError ? err.headers : {},
  };
}
