// Transport-neutral errors thrown by services; error-handler.ts turns them into HTTP answers.

export const ERROR_STATUS = {
  invalid: 400,
  not_authenticated: 401,
  token_not_valid: 401,
  permission_denied: 403,
  not_found: 404,
  method_not_allowed: 405,
  booking_conflict: 409,
  invalid_state: 409,
  conflict: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  throttled: 429,
  server_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldErrors;
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { errors?: FieldErrors; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A 400 naming one or more fields: `invalidFields({ email: 'Already registered.' })`. */
export function invalidFields(
  fields: Record<string, string | string[]>,
  message = 'Invalid input.',
): AppError {
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(fields))
    errors[field] = Array.isArray(messages) ? messages : [messages];
  return new AppError('invalid', message, { errors });
}

export const notFound = (what = 'Not found.') => new AppError('not_found', what);
export const permissionDenied = (why = 'You do not have permission to perform this action.') =>
  new AppError('permission_denied', why);
