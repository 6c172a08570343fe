import { ERROR_CODES, ErrorCode } from '../schemas/openapi/common';

export interface ErrorDetail {
  location: 'path' | 'query' | 'body' | 'header';
  field: string;
  rule: string;
  message: string;
}

/** An error that becomes `{code, message, request_id[, details]}` with its status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    const allowed = ERROR_CODES[status as keyof typeof ERROR_CODES] as readonly string[] | undefined;
    if (!allowed?.includes(code)) throw new Error(`error code ${code} is not documented for status ${status}`);
  }
}

export const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, 'not_found', `No ${what} ${JSON.stringify(id)} in this account and environment.`);

export const conflict = (code: ErrorCode, message: string): ApiError => new ApiError(409, code, message);

export const badRequest = (code: ErrorCode, message: string, details?: ErrorDetail[]): ApiError =>
  new ApiError(400, code, message, details);
