import { createRequire } from 'node:module';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LevelWithSilent,
  type Logger,
  type LoggerOptions,
  pino,
} from 'pino';
import type { LogFormat } from '../config.ts';

/** Where credentials can appear in a log entry; they are written as `[redacted]`. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["gateway-signature"]',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.refresh',
  '*.access',
];

/**
 * Paths whose segment is itself a secret (a calendar feed's token: decisions §24), with what stands in for
 * it in a logged url. Path segments are otherwise logged as they are.
 */
const SECRET_PATH_SEGMENTS: readonly [RegExp, string][] = [
  [/^\/calendar\/[^/?#]*\.ics/, '/calendar/[redacted].ics'],
];

/** A request's url as logs may show it: `/calendar/[redacted].ics` for a feed, else unchanged. */
export function loggedUrl(url: string): string {
  for (const [pattern, replacement] of SECRET_PATH_SEGMENTS)
    if (pattern.test(url)) return url.replace(pattern, replacement);
  return url;
}

/**
 * LOG_FORMAT when set; otherwise readable lines for a person at a terminal during development, and JSON
 * for everything else (a file, a pipe, a log collector, production).
 */
export function chooseLogFormat(options: {
  logFormat: LogFormat | null;
  nodeEnv: string;
  stdoutIsTTY: boolean;
}): LogFormat {
  if (options.logFormat) return options.logFormat;
  return options.stdoutIsTTY && options.nodeEnv !== 'production' ? 'pretty' : 'json';
}

/** Where the logs of a format go: stdout, as JSON or through pino-pretty. */
export function logDestination(format: LogFormat): DestinationStream {
  if (format === 'json') return pino.destination(1);
  // required only here: pino-pretty is a development dependency, absent from a production install
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: object) => DestinationStream;
  return pretty({ colorize: true, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

export interface Logging {
  /** the service's logger (Fastify's `loggerInstance`): every entry passes through the redaction */
  logger: FastifyBaseLogger;
  logController: LogController;
  /** makes each request's `request.log` (see RequestLog) */
  childLoggerFactory: (
    parent: FastifyBaseLogger,
    bindings: Bindings,
    options: ChildLoggerOptions,
  ) => FastifyBaseLogger;
}

/**
 * The service's JSON logs on stdout. Every entry is redacted except the access log's, which has a fixed
 * shape built here from fields that never hold a credential; pino's wildcard redaction tripled the cost
 * of that one line a request.
 */
export function createLogging(
  level: LoggerOptions['level'],
  destination: DestinationStream = pino.destination(1),
): Logging {
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
  const access = pino({ level }, destination);
  return {
    logger,
    logController: new AccessLog(access),
    // request.log's parent is the service's pino logger (loggerInstance)
    childLoggerFactory: (parent, bindings, options) => new RequestLog(parent as Logger, bindings, options),
  };
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's `request.log`: the service logger's child with the request id, made on its first entry.
 * Most requests write none (the access line is written apart), and making a child of the redacting
 * logger costs far more than this wrapper. Entries below the request's level are dropped without making
 * it.
 */
class RequestLog implements FastifyBaseLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  get level(): LevelWithSilent | string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilent | string) {
    this.#logger().level = level;
  }

  #logger(): Logger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #write(method: LogMethod, args: unknown[]): void {
    const { values } = this.#parent.levels;
    if (values[method] < values[this.level]) return;
    (this.#logger()[method] as (...entry: unknown[]) => void)(...args);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
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
          url: loggedUrl(request.url),
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
