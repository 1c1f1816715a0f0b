import type { FastifyError } from 'fastify';
import { AppError } from '../../http/errors.ts';

// OCTO's error bodies (decisions §24; the OCTO specification's Error* schemas): `{"error", "errorMessage"}`
// and, for an invalid id, the id under its own name. Every answer of /octo/v1/ that is not a success has
// this body, whatever refused the request: the OCTO service, the platform's services beneath it (AppError),
// the body's validation, the JSON parser or an unexpected failure (500, no detail).

export type OctoErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'BAD_REQUEST'
  | 'INVALID_PRODUCT_ID'
  | 'INVALID_OPTION_ID'
  | 'INVALID_UNIT_ID'
  | 'INVALID_AVAILABILITY_ID'
  | 'INVALID_BOOKING_UUID'
  | 'UNPROCESSABLE_ENTITY'
  | 'NOT_FOUND'
  | 'INTERNAL_SERVER_ERROR';

export interface OctoErrorBody {
  error: OctoErrorCode;
  errorMessage: string;
  productId?: string;
  optionId?: string;
  unitId?: string;
  availabilityId?: string;
  uuid?: string;
}

const STATUS: Record<OctoErrorCode, number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BAD_REQUEST: 400,
  INVALID_PRODUCT_ID: 400,
  INVALID_OPTION_ID: 400,
  INVALID_UNIT_ID: 400,
  INVALID_AVAILABILITY_ID: 400,
  INVALID_BOOKING_UUID: 400,
  UNPROCESSABLE_ENTITY: 400,
  NOT_FOUND: 404,
  INTERNAL_SERVER_ERROR: 500,
};

export class OctoError extends Error {
  readonly body: OctoErrorBody;
  constructor(body: OctoErrorBody) {
    super(body.errorMessage);
    this.name = 'OctoError';
    this.body = body;
  }
  get status(): number {
    return STATUS[this.body.error];
  }
}

// The messages are OCTO's own descriptions of each error.
export const unauthorized = () =>
  new OctoError({
    error: 'UNAUTHORIZED',
    errorMessage:
      "You didn't send the API Key in the Authorization header to an endpoint that requires authentication",
  });
export const forbidden = () =>
  new OctoError({
    error: 'FORBIDDEN',
    errorMessage:
      "You sent an API Key that was invalid or has been revoked by the backend system. Or you're trying to access an endpoint/resource that you do not have access to",
  });
export const badRequest = (errorMessage: string) => new OctoError({ error: 'BAD_REQUEST', errorMessage });
export const unprocessable = (errorMessage: string) =>
  new OctoError({ error: 'UNPROCESSABLE_ENTITY', errorMessage });
export const invalidProductId = (productId: string) =>
  new OctoError({
    error: 'INVALID_PRODUCT_ID',
    errorMessage: 'The productId was missing or invalid',
    productId,
  });
export const invalidOptionId = (optionId: string) =>
  new OctoError({
    error: 'INVALID_OPTION_ID',
    errorMessage: 'The optionId was missing or invalid',
    optionId,
  });
export const invalidUnitId = (unitId: string) =>
  new OctoError({ error: 'INVALID_UNIT_ID', errorMessage: 'The unitId was missing or invalid', unitId });
export const invalidAvailabilityId = (availabilityId: string) =>
  new OctoError({
    error: 'INVALID_AVAILABILITY_ID',
    errorMessage: 'The availabilityId was missing or invalid',
    availabilityId,
  });
export const invalidBookingUuid = (uuid: string) =>
  new OctoError({
    error: 'INVALID_BOOKING_UUID',
    errorMessage: 'The uuid was already used, missing or invalid',
    uuid,
  });

const INTERNAL: OctoErrorBody = {
  error: 'INTERNAL_SERVER_ERROR',
  errorMessage: 'There was an un-recoverable error, please try again',
};

/** The status and OCTO body of any error thrown while serving /octo/v1/. */
export function toOctoErrorResponse(error: unknown): { status: number; body: OctoErrorBody } {
  if (error instanceof OctoError) return { status: error.status, body: error.body };
  if (error instanceof AppError) {
    if (error.status === 404)
      return { status: 404, body: { error: 'NOT_FOUND', errorMessage: error.message } };
    if (error.status === 409)
      return { status: 400, body: { error: 'UNPROCESSABLE_ENTITY', errorMessage: error.message } };
    if (error.status < 500)
      return { status: 400, body: { error: 'BAD_REQUEST', errorMessage: appErrorText(error) } };
    return { status: 500, body: INTERNAL };
  }
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) {
    const first = fastifyError.validation[0];
    const where = `${fastifyError.validationContext ?? 'body'}${first?.instancePath ?? ''}`;
    return {
      status: 400,
      body: { error: 'BAD_REQUEST', errorMessage: `${where} ${first?.message ?? 'is invalid'}` },
    };
  }
  const status = fastifyError.statusCode;
  if (status === 404) return { status: 404, body: { error: 'NOT_FOUND', errorMessage: 'Not found' } };
  // a body over 1 MiB or not JSON keeps its HTTP status (413, 415); anything else refused is a 400
  if (status && status >= 400 && status < 500)
    return {
      status: status === 413 || status === 415 ? status : 400,
      body: { error: 'BAD_REQUEST', errorMessage: fastifyError.message || 'Bad request' },
    };
  return { status: 500, body: INTERNAL };
}

/** An AppError's message with the fields it names, as one sentence for errorMessage. */
export function appErrorText(error: AppError): string {
  const fields = Object.entries(error.errors ?? {}).map(
    ([field, messages]) => `${field}: ${messages.join(' ')}`,
  );
  return fields.length ? `${error.message} ${fields.join('; ')}` : error.message;
}
