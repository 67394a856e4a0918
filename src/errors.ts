// The contract's error codes and the one table that maps them to HTTP statuses.

export const ERROR_CODES = ['unauthorized', 'forbidden', 'not_found', 'validation_error', 'internal_error'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type FieldErrors = Record<string, string>;

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  validation_error: 400,
  internal_error: 500,
};

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: FieldErrors;

  constructor(code: ErrorCode, detail: string, options: { fields?: FieldErrors; status?: number } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? STATUS_BY_CODE[code];
    if (options.fields) this.fields = options.fields;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

/** A validation error tied to one field, keyed as the client sent it. */
export const invalidField = (field: string, message: string): AppError =>
  new AppError('validation_error', `${field}: ${message}`, { fields: { [field]: message } });
