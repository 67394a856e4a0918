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
  /** Response headers that go with the error (Retry-After of a lockout). */
  readonly headers?: Record<string, string>;

  constructor(code: ErrorCode, detail: string, options: { fields?: FieldErrors; status?: number; headers?: Record<string, string> } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? STATUS_BY_CODE[code];
    if (options.fields) this.fields = options.fields;
    if (options.headers) this.headers = options.headers;
  }
}

export const notFound = (what: string): AppError => new AppError('not_found', `${what} not found`);

/**
 * Runs independent checks and answers with every field that failed, in one validation_error
 * (docs/api.md: all the problems in one answer); any other failure is thrown as it is.
 */
export async function checkAll<T extends readonly unknown[]>(checks: { [K in keyof T]: () => T[K] | Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(checks.map(async (check) => check()));
  const fields: FieldErrors = Object.create(null);
  for (const outcome of settled) {
    if (outcome.status === 'fulfilled') continue;
    const error = outcome.reason;
    if (!(error instanceof AppError && error.code === 'validation_error' && error.fields)) throw error;
    Object.assign(fields, error.fields);
  }
  const names = Object.keys(fields);
  if (names.length > 0) throw new AppError('validation_error', names.map((name) => `${name}: ${fields[name]}`).join('; '), { fields });
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

/** A validation error tied to one field, keyed as the client sent it. */
export const invalidField = (field: string, message: string): AppError =>
  new AppError('validation_error', `${field}: ${message}`, { fields: { [field]: message } });
