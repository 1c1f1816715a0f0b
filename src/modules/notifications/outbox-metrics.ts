import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { AttemptOutcome, DeliveryRow } from './channel.ts';
import { outboxDepth } from './outbox.repository.ts';

/**
 * The outbox's figures in /metrics: its depth (events not yet fanned out, deliveries not yet finished;
 * read from the database at each scrape, so every process reports the shared outbox) and this process's
 * delivery attempts and failures by channel and endpoint (`mail` for email). Returns the worker's
 * onAttempt.
 */
export function registerOutboxMetrics(
  app: FastifyInstance,
  db: Kysely<Database>,
): (delivery: DeliveryRow, outcome: AttemptOutcome) => void {
  const { Counter, Gauge } = app.metrics.client;
  new Gauge({
    name: 'notification_outbox_depth',
    help: 'Outbox rows waiting: events not yet fanned out, deliveries not yet finished',
    labelNames: ['kind'],
    async collect() {
      const depth = await outboxDepth(db);
      this.set({ kind: 'events' }, depth.events);
      this.set({ kind: 'deliveries' }, depth.deliveries);
    },
  });
  const attempts = new Counter({
    name: 'notification_delivery_attempts_total',
    help: 'Delivery attempts made by this process, by channel and endpoint',
    labelNames: ['channel', 'endpoint'],
  });
  const failures = new Counter({
    name: 'notification_delivery_failures_total',
    help: 'Delivery attempts that failed, by channel and endpoint',
    labelNames: ['channel', 'endpoint'],
  });
  return (delivery, outcome) => {
    const labels = {
      channel: delivery.channel,
      endpoint: delivery.endpoint_id === null ? 'mail' : String(delivery.endpoint_id),
    };
    attempts.inc(labels);
    if (!outcome.delivered) failures.inc(labels);
  };
}
