import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8000,
      host: '127.0.0.1',
      databaseUrl: 'sqlite:./data/app.sqlite',
      jwtSecret: null,
      accessTokenTtl: 900,
      refreshTokenTtl: 604_800,
      paymentWebhookSecret: null,
      logLevel: 'info',
      corsOrigins: [],
      trustProxy: false,
      migrateOnStart: true,
      pgPreparedStatements: true,
      pgPoolSize: 10,
      rateLimits: { login: { max: 10 }, refresh: { max: 10 }, register: { max: 5 } },
      mockCheckout: true,
      smtpUrl: null,
      mailFrom: 'Waterbook <no-reply@localhost>',
      mailDir: resolve('./data/mail'),
      publicUrl: 'http://localhost:8000',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('turns the mock checkout off by default in production, and MOCK_CHECKOUT decides over that', () => {
    const production = { NODE_ENV: 'production', PAYMENT_WEBHOOK_SECRET: 'a-secret-of-16-chars' };
    expect(loadConfig(production).mockCheckout).toBe(false);
    expect(loadConfig({ ...production, MOCK_CHECKOUT: 'true' }).mockCheckout).toBe(true);
    expect(loadConfig({ MOCK_CHECKOUT: 'off' }).mockCheckout).toBe(false);
    expect(() => loadConfig({ MOCK_CHECKOUT: 'maybe' })).toThrow('MOCK_CHECKOUT: must be true or false');
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://app:pw@127.0.0.1:5433/app',
      JWT_SECRET: 'a-very-long-secret-value',
      ACCESS_TOKEN_TTL: '60',
      REFRESH_TOKEN_TTL: '3600',
      PAYMENT_WEBHOOK_SECRET: 'whsec-long-enough-value',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '2',
      MIGRATE_ON_START: 'false',
      PG_PREPARED_STATEMENTS: 'false',
      PG_POOL_SIZE: '25',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      databaseUrl: 'postgres://app:pw@127.0.0.1:5433/app',
      accessTokenTtl: 60,
      refreshTokenTtl: 3600,
      logLevel: 'warn',
      corsOrigins: ['https://a.example', 'https://b.example'],
      trustProxy: 2,
      migrateOnStart: false,
      pgPreparedStatements: false,
      pgPoolSize: 25,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT: /],
    [{ PORT: '70000' }, /^PORT: /],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL: /],
    [{ JWT_SECRET: 'short' }, /^JWT_SECRET: /],
    [{ ACCESS_TOKEN_TTL: '0' }, /^ACCESS_TOKEN_TTL: /],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL: /],
    [{ CORS_ORIGINS: 'not a url' }, /^CORS_ORIGINS: /],
    [{ MIGRATE_ON_START: 'maybe' }, /^MIGRATE_ON_START: /],
    [{ PG_PREPARED_STATEMENTS: 'sometimes' }, /^PG_PREPARED_STATEMENTS: /],
    [{ PG_POOL_SIZE: '0' }, /^PG_POOL_SIZE: /],
    [{ NODE_ENV: 'production' }, /^PAYMENT_WEBHOOK_SECRET: /],
  ])('names the bad variable: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the mail settings, the public URL following PORT unless set', () => {
    expect(
      loadConfig({
        SMTP_URL: 'smtps://mailer:pw@smtp.example:465',
        MAIL_FROM: 'Waterbook Bookings <bookings@waterbook.example>',
        MAIL_DIR: '/var/mail/waterbook',
        PUBLIC_URL: 'https://book.example/',
      }),
    ).toMatchObject({
      smtpUrl: 'smtps://mailer:pw@smtp.example:465',
      mailFrom: 'Waterbook Bookings <bookings@waterbook.example>',
      mailDir: '/var/mail/waterbook',
      publicUrl: 'https://book.example',
    });
    expect(
      loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'bookings@waterbook.example' }),
    ).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:2525',
      mailFrom: 'bookings@waterbook.example',
    });
    expect(loadConfig({ PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });

  it.each([
    [{ SMTP_URL: 'http://smtp.example' }, /^SMTP_URL: /],
    [{ SMTP_URL: 'smtp:' }, /^SMTP_URL: /],
    [{ SMTP_URL: 'not a url' }, /^SMTP_URL: /],
    [{ MAIL_FROM: 'nobody' }, /^MAIL_FROM: /],
    [{ MAIL_FROM: 'Waterbook <nobody>' }, /^MAIL_FROM: /],
    [{ MAIL_FROM: 'a@b.example\r\nBcc: c@d.example' }, /^MAIL_FROM: /],
    [{ PUBLIC_URL: 'ftp://book.example' }, /^PUBLIC_URL: /],
    [{ PUBLIC_URL: 'https://book.example/app' }, /^PUBLIC_URL: /],
    [{ PUBLIC_URL: 'https://book.example/?ref=mail' }, /^PUBLIC_URL: /],
    [{ PUBLIC_URL: 'book.example' }, /^PUBLIC_URL: /],
  ])('names the bad mail setting: %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never repeats a refused SMTP_URL, which may hold a password', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:s3cret-pass@smtp.example' })).toThrow(
      /^SMTP_URL: must be smtp:\/\/host:port or smtps:\/\/user:password@host:port$/,
    );
  });

  it('points the command line at API_URL, else at http://HOST:PORT, and refuses a URL that is not http(s)', () => {
    expect(loadConfig({}).apiUrl).toBe('http://127.0.0.1:8000');
    expect(loadConfig({ HOST: '::1', PORT: '9000' }).apiUrl).toBe('http://[::1]:9000');
    expect(loadConfig({ API_URL: 'https://api.example/', PORT: '9000' }).apiUrl).toBe('https://api.example');
    expect(() => loadConfig({ API_URL: 'api.example' })).toThrow(
      `API_URL: must be the server's http(s) URL, such as http://127.0.0.1:8000, got "api.example"`,
    );
    expect(() => loadConfig({ API_URL: 'ftp://api.example' })).toThrow(/^API_URL: /);
  });
});
