import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { type Logger, type LoggerOptions, pino } from 'pino';

/** Where credentials can appear in a log entry; they are written as `[redacted]`. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["gateway-signature"]',
  '*.password',
  '*.refresh',
  '*.access',
];

export interface Logging {
  /** the service's logger (Fastify's `loggerInstance`): every entry passes through the redaction */
  logger: FastifyBaseLogger;
  logController: LogController;
}

/**
 * The service's JSON logs on stdout. Every entry is redacted except the access log's, which has a fixed
 * shape built here from fields that never hold a credential; pino's wildcard redaction tripled the cost
 * of that one line a request.
 */
export function createLogging(level: LoggerOptions['level']): Logging {
  const destination = pino.destination(1);
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
  const access = pino({ level }, destination);
  return { logger, logController: new AccessLog(access) };
}

/**
 * The access log: at info, one line per answered request with its id, the request (method, url, host,
 * client address and port), the status and the time taken. Fastify's own controller writes a second line
 * on arrival. Failures are logged as Fastify logs them, through the redacting logger.
 */
class AccessLog extends LogController {
  readonly #access: Logger;

  constructor(access: Logger) {
    super();
    this.#access = access;
  }

  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    // a route's own logLevel (e.g. /metrics at warn) silences its access lines
    const { values } = this.#access.levels;
    if (!(values[request.log.level] <= values.info)) return;
    this.#access.info(
      {
        reqId: request.id,
        req: {
          method: request.method,
          url: request.url,
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  }
}
