import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogging, loggedUrl } from '../../src/http/logging.ts';

// request.log is made on its first entry (src/http/logging.ts): its entries must still carry the request
// id, pass through the redaction, and respect the service's and the route's levels.

interface Entry {
  level: number;
  msg: string;
  reqId?: string;
  user?: { email: string; password: string };
}

let app: FastifyInstance;
afterEach(() => app?.close());

async function serve(level: string, log: (request: { log: FastifyInstance['log'] }) => void) {
  const lines: string[] = [];
  const logging = createLogging(level, { write: (line: string) => lines.push(line) });
  app = Fastify({
    loggerInstance: logging.logger,
    logController: logging.logController,
    childLoggerFactory: logging.childLoggerFactory,
    genReqId: () => 'request-one',
  });
  app.get('/', (request, reply) => {
    log(request);
    reply.send({ ok: true });
  });
  app.get('/quiet', { logLevel: 'warn' }, (request, reply) => {
    log(request);
    reply.send({ level: request.log.level });
  });
  // how many loggers were made for requests (the point of making them lazily)
  const children = vi.spyOn(logging.logger, 'child');
  const entries = () =>
    lines.map((line) => JSON.parse(line) as Entry).filter((e) => e.msg !== 'request completed');
  return { entries, children };
}

describe('request.log', () => {
  it('writes with the request id and redacts credentials', async () => {
    const { entries } = await serve('info', (request) =>
      request.log.error({ user: { email: 'a@example.com', password: 'hunter2-secret' } }, 'failed'),
    );
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    expect(entries()).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'failed',
        reqId: 'request-one',
        user: { email: 'a@example.com', password: '[redacted]' },
      }),
    ]);
  });

  it('drops entries below the service level', async () => {
    let warn = false;
    const { entries, children } = await serve('warn', (request) => {
      request.log.info('not shown');
      request.log.debug('not shown');
      if (warn) request.log.warn('shown');
    });
    await app.inject({ url: '/' });
    expect(entries()).toEqual([]);
    expect(children).not.toHaveBeenCalled();
    warn = true;
    await app.inject({ url: '/' });
    expect(entries().map((e) => [e.msg, e.reqId])).toEqual([['shown', 'request-one']]);
    expect(children).toHaveBeenCalledTimes(1);
  });

  it("takes a route's own level and reports it", async () => {
    let error = false;
    const { entries, children } = await serve('trace', (request) => {
      request.log.info('not shown');
      if (error) request.log.error('shown');
    });
    expect((await app.inject({ url: '/quiet' })).json()).toEqual({ level: 'warn' });
    expect(children).not.toHaveBeenCalled();
    error = true;
    expect((await app.inject({ url: '/quiet' })).json()).toEqual({ level: 'warn' });
    expect(entries().map((e) => e.msg)).toEqual(['shown']);
    await app.inject({ url: '/' });
    expect(entries().map((e) => e.msg)).toEqual(['shown', 'not shown', 'shown']);
  });

  it('makes children that keep the request id', async () => {
    const { entries } = await serve('info', (request) => request.log.child({ step: 'pay' }).warn('nested'));
    await app.inject({ url: '/' });
    expect(entries()).toEqual([
      expect.objectContaining({ msg: 'nested', reqId: 'request-one', step: 'pay' }),
    ]);
  });
});

describe('loggedUrl', () => {
  it("hides a calendar feed's token, query and all, and leaves every other url as it is", () => {
    const token = 'q5Jd0Yb0w8mR3sX1nZk2cV7tLpA4eH6uG9iF0oB3yWs';
    expect(loggedUrl(`/calendar/${token}.ics`)).toBe('/calendar/[redacted].ics');
    expect(loggedUrl(`/calendar/${token}.ics?x=1`)).toBe('/calendar/[redacted].ics?x=1');
    expect(loggedUrl('/calendar/.ics')).toBe('/calendar/[redacted].ics');
    for (const url of ['/api/v1/booking/vendor/calendar-feed/', '/media/abc.png', '/vendor/channels', '/'])
      expect(loggedUrl(url)).toBe(url);
  });
});
