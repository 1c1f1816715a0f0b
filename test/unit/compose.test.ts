import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config.ts';

// compose.yaml, deploy/Caddyfile and the Dockerfile agree with each other (no Docker engine runs here to
// try them): the migrations run once before the API instances start, the instances take no migration of
// their own and trust the one proxy in front for client addresses, and the proxy shares requests round
// robin between exactly those instances, checking each one's /readyz.

interface Service {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  restart?: string;
  healthcheck?: { disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
}

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
// Compose supports YAML merge keys (`<<: *api`), which the yaml package applies with `merge`.
const compose = parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const caddyfile = read('deploy/Caddyfile');
const dockerfile = read('Dockerfile');

/** The API instances: the services running the image's own command (the server). */
const apiNames = Object.keys(services).filter((name) => services[name].build && !services[name].command);

/** An environment as Compose fills it in: defaults taken, required variables given a value. */
function interpolated(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([name, value]) => [
      name,
      value
        .replace(/\$\{\w+:-([^}]*)\}/g, '$1')
        .replace(
          /\$\{(\w+):\?[^}]*\}/g,
          (_match, variable: string) => `${variable.toLowerCase()}-0123456789`,
        ),
    ]),
  );
}

/** The Dockerfile's ENV values (the image's defaults under compose's environment). */
const imageEnv = Object.fromEntries(
  [...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=(\S+?)\s*\\?$/gm)].map((m) => [m[1], m[2]]),
);

describe('compose.yaml', () => {
  it('runs PostgreSQL, a migrate job, two API instances (or more) and a proxy', () => {
    expect(apiNames.slice(0, 2)).toEqual(['api-1', 'api-2']);
    expect(Object.keys(services).filter((name) => !apiNames.includes(name))).toEqual([
      'db',
      'migrate',
      'proxy',
    ]);
    expect(services.db.image).toMatch(/^postgres:\d+$/);
  });

  it('migrates once, after the database is healthy, with the same image and configuration', () => {
    const migrate = services.migrate;
    expect(migrate.command).toEqual(['node', 'src/cli.ts', 'migrate']);
    expect(migrate.depends_on).toEqual({ db: { condition: 'service_healthy' } });
    expect(migrate.restart).toBe('no');
    expect(migrate.healthcheck).toEqual({ disable: true });
    expect(dockerfile).toMatch(/^COPY src \.\/src$/m);
    for (const name of apiNames) {
      expect(services[name].image).toBe(migrate.image);
      expect(services[name].environment).toEqual(migrate.environment);
    }
  });

  it('starts each API instance after the migrations, with none of its own, behind one trusted proxy', () => {
    for (const name of apiNames) {
      const api = services[name];
      expect(api.depends_on).toEqual({
        db: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(api.ports).toBeUndefined(); // reached through the proxy only
      expect(api.volumes).toEqual(['appdata:/data']);
      const config = loadConfig({ ...imageEnv, ...interpolated(api.environment ?? {}) });
      expect(config).toMatchObject({
        nodeEnv: 'production',
        migrateOnStart: false,
        trustProxy: 1,
        port: 8000,
        host: '0.0.0.0',
        mediaDir: '/data/media',
      });
      expect(config.databaseUrl).toMatch(/^postgres:\/\/app:[^@]+@db:5432\/app$/);
    }
  });

  it('publishes the proxy, started once every instance answers its health check (/readyz)', () => {
    const proxy = services.proxy;
    expect(proxy.image).toMatch(/^caddy:\d+$/);
    expect(proxy.ports).toEqual(['8000:8000']);
    expect(proxy.volumes).toEqual(['./deploy/Caddyfile:/etc/caddy/Caddyfile:ro']);
    expect(proxy.depends_on).toEqual(
      Object.fromEntries(apiNames.map((name) => [name, { condition: 'service_healthy' }])),
    );
    expect(dockerfile).toMatch(/HEALTHCHECK[\s\S]*\/readyz/);
  });
});

describe('deploy/Caddyfile', () => {
  const directive = (name: string) =>
    caddyfile
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .filter(([word]) => word === name)
      .map(([, ...args]) => args);

  it('shares requests round robin between exactly the API instances, on the port they listen on', () => {
    expect(directive('reverse_proxy')).toEqual([[...apiNames.map((name) => `${name}:8000`), '{']]);
    expect(imageEnv.PORT).toBe('8000');
    expect(directive('lb_policy')).toEqual([['round_robin']]);
  });

  it('leaves out an instance while its /readyz fails', () => {
    expect(directive('health_uri')).toEqual([['/readyz']]);
    expect(directive('health_interval')).toHaveLength(1);
  });

  it('listens on the published port, over plain HTTP', () => {
    expect(caddyfile).toMatch(/^:8000 \{$/m);
  });
});
