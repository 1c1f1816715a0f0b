import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import pLimit from 'p-limit';
import type {
  Database,
  Db,
  DeliveryChannel as DeliveryChannelName,
  NotificationDeliveriesTable,
} from '../../db/database.ts';
import { inTransaction } from '../../db/transactions.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  type EventBody,
  type EventType,
  type InvitationEventData,
  PASSWORD_RESET_EVENT,
  TEAM_INVITATION_EVENT,
} from '../../outbox/events.ts';
import type { AttemptOutcome, DeliveryAttempt, DeliveryChannel, DeliveryRow } from './channel.ts';
import { findEndpoint } from './endpoints.repository.ts';
import * as repo from './outbox.repository.ts';
import { createPacer } from './outbox-pacing.ts';

// The outbox's delivering side (decisions §14). Every server process runs one worker; each pass
//   1. fans out the events not yet dispatched into deliveries: one per active webhook endpoint of the
//      event's vendor that subscribes to its type, one per mail recipient (MAIL_RECIPIENTS), all in one
//      transaction with the event's dispatched_at, so an event is fanned out exactly once;
//   2. claims the deliveries that are due (the attempt counted, the row held for CLAIM_TIMEOUT), sends
//      them outside any transaction, and records each outcome: delivered, retried after the next delay of
//      the retry schedule (with jitter), or failed once the schedule is used up. A 410 disables the
//      endpoint.
// At least once: a process killed between a send and its record leaves the claim to run out, and the
// next claim sends again (the receiver deduplicates by webhook-id). Never twice at once: a claim outlasts
// the send's timeout, and an outcome is recorded only by the attempt that holds the claim. Between two
// batches the started loop gives way to requests that keep the event loop busy (outbox-pacing.ts).

/** The mail recipients of a booking event; a customer's or the vendor's. */
export type MailRole = 'customer' | 'vendor';

export interface OutboxWorkerDeps {
  db: Kysely<Database>;
  clock: Clock;
  channels: Record<DeliveryChannelName, DeliveryChannel>;
  /** who gets mail for each event (the mail messages' table) */
  mailRecipients: (type: EventType) => readonly MailRole[];
  /** a password reset's token for the account with this email, if there is one (the accounts module) */
  issueResetToken: (
    trx: Db,
    email: string,
    now: number,
  ) => Promise<{ token: string; email: string } | undefined>;
  /** a team invitation's token, if the invitation is still open (the accounts module) */
  issueInvitationToken: (
    trx: Db,
    invitationId: number,
    now: number,
  ) => Promise<{ token: string } | undefined>;
  /** seconds to wait before each retry (WEBHOOK_RETRY_SCHEDULE) */
  retrySchedule: readonly number[];
  /** how long a claimed attempt is held before another process may try it again */
  claimTimeoutMs: number;
  /** each attempt's outcome, for /metrics */
  onAttempt?: (delivery: DeliveryRow, outcome: AttemptOutcome) => void;
  /** [0, 1): the jitter's randomness (tests fix it) */
  random?: () => number;
  /**
   * What the started loop waits after each batch that took `batchMs` (default: createPacer, which yields
   * the event loop to busy requests), ending early once `signal` aborts at stop; runOnce never waits
   */
  pace?: (batchMs: number, signal: AbortSignal) => Promise<void>;
}

/** How many events or deliveries one transaction claims, so none grows without bound. */
const BATCH = 50;
/** How many sends of one pass run at once. */
const SEND_CONCURRENCY = 8;
/** A retry waits its scheduled delay plus up to this share more, so failed receivers are not hit in step. */
const JITTER = 0.1;

export interface OutboxWorker {
  /** One pass: fan out every waiting event, then attempt every due delivery. What it did. */
  runOnce(): Promise<{ dispatched: number; attempted: number }>;
  /** Stops the loop (when started) and waits for a pass under way to finish. */
  stop(): Promise<void>;
}

export function createOutboxWorker(deps: OutboxWorkerDeps): OutboxWorker & {
  start(intervalMs: number, log: FastifyBaseLogger): void;
} {
  const random = deps.random ?? Math.random;
  let running: Promise<{ dispatched: number; attempted: number }> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const pacer = deps.pace ?? createPacer();
  // aborted by stop: ends a pacing wait early, and every loop checks it
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;
  const pace = (batchMs: number) => pacer(batchMs, stopping.signal);
  const noWait = async () => {};

  // `after` runs after every batch, with how long the batch took
  async function pass(after: (batchMs: number) => Promise<void>) {
    const now = deps.clock.now().getTime();
    if (!(await repo.hasWork(deps.db, now))) return { dispatched: 0, attempted: 0 };
    const batch = async (run: () => Promise<number>) => {
      const started = performance.now();
      const n = await run();
      await after(performance.now() - started);
      return n;
    };
    let dispatched = 0;
    for (;;) {
      const n = await batch(() =>
        inTransaction(deps.db, (trx) => dispatchEvents(trx, deps, deps.clock.now().getTime())),
      );
      dispatched += n;
      if (n < BATCH || stopped()) break;
    }
    let attempted = 0;
    for (;;) {
      const n = await batch(() => attemptDue(deps, random));
      attempted += n;
      if (n < BATCH || stopped()) break;
    }
    return { dispatched, attempted };
  }

  // one pass at a time per process: a call while one runs waits for it and then runs its own
  function runPass(after: (batchMs: number) => Promise<void>) {
    const next = (running ?? Promise.resolve()).catch(() => undefined).then(() => pass(after));
    running = next;
    return next.finally(() => {
      if (running === next) running = undefined;
    });
  }
  const runOnce = () => runPass(noWait);

  return {
    runOnce,
    start(intervalMs, log) {
      const loop = () => {
        timer = undefined;
        runPass(pace).then(
          (done) => {
            if (stopped()) return;
            // more may be waiting behind a full batch: go again at once
            const busy = done.dispatched + done.attempted > 0;
            timer = setTimeout(loop, busy ? 0 : intervalMs);
            timer.unref();
          },
          (error: unknown) => {
            if (stopped()) return;
            log.error({ err: error }, 'outbox pass failed');
            timer = setTimeout(loop, intervalMs);
            timer.unref();
          },
        );
      };
      timer = setTimeout(loop, intervalMs);
      timer.unref();
    },
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** Fans out up to BATCH waiting events in the caller's transaction; how many. */
async function dispatchEvents(trx: Db, deps: OutboxWorkerDeps, now: number): Promise<number> {
  const events = await repo.claimUndispatchedEvents(trx, BATCH);
  for (const event of events) await repo.insertDeliveries(trx, await deliveriesOf(trx, deps, event, now));
  await repo.markDispatched(
    trx,
    events.map((e) => e.id),
    now,
  );
  return events.length;
}

type NewDelivery = Insertable<NotificationDeliveriesTable>;

async function deliveriesOf(
  trx: Db,
  deps: OutboxWorkerDeps,
  event: repo.EventRow,
  now: number,
): Promise<NewDelivery[]> {
  const base = { event_id: event.id, next_attempt_at: now, created_at: now, updated_at: now };
  if (event.type === PASSWORD_RESET_EVENT) {
    const { data } = JSON.parse(event.payload) as EventBody<{ email: string }>;
    const issued = await deps.issueResetToken(trx, data.email, now);
    if (!issued) return [];
    return [
      { ...base, channel: 'email', recipient: issued.email, recipient_role: 'account', secret: issued.token },
    ];
  }
  if (event.type === TEAM_INVITATION_EVENT) {
    const { data } = JSON.parse(event.payload) as EventBody<InvitationEventData>;
    const issued = await deps.issueInvitationToken(trx, data.invitation_id, now);
    if (!issued) return [];
    return [
      { ...base, channel: 'email', recipient: data.email, recipient_role: 'invitee', secret: issued.token },
    ];
  }
  const type = event.type as EventType;
  const rows: NewDelivery[] = [];
  if (event.vendor_id !== null)
    for (const endpoint of await repo.activeEndpointsOf(trx, event.vendor_id))
      if (subscribes(endpoint.event_types, type))
        rows.push({ ...base, channel: 'webhook', endpoint_id: endpoint.id });
  const roles = deps.mailRecipients(type);
  if (roles.length === 0) return rows;
  // a booking made through a channel has no customer here (decisions §24): the reseller tells its own
  const { data } = JSON.parse(event.payload) as EventBody<{
    booking: { customer: { email: string } | null };
  }>;
  for (const role of roles) {
    const recipient =
      role === 'customer'
        ? data.booking.customer?.email
        : event.vendor_id !== null
          ? await repo.vendorMailAddress(trx, event.vendor_id)
          : undefined;
    if (recipient) rows.push({ ...base, channel: 'email', recipient, recipient_role: role });
  }
  return rows;
}

/** Whether an endpoint's event_types (a JSON list, or ["*"]) include `type`. */
export function subscribes(eventTypes: string, type: string): boolean {
  const types = JSON.parse(eventTypes) as string[];
  return types.includes('*') || types.includes(type);
}

/** Claims up to BATCH due deliveries, sends them, records their outcomes; how many were claimed. */
async function attemptDue(deps: OutboxWorkerDeps, random: () => number): Promise<number> {
  const now = deps.clock.now().getTime();
  const claimed = await inTransaction(deps.db, (trx) =>
    repo.claimDueDeliveries(trx, now, now + deps.claimTimeoutMs, BATCH),
  );
  const limit = pLimit(SEND_CONCURRENCY);
  await Promise.all(claimed.map((claim) => limit(() => attempt(deps, claim, random))));
  return claimed.length;
}

async function attempt(
  deps: OutboxWorkerDeps,
  { delivery, event }: Pick<DeliveryAttempt, 'delivery' | 'event'>,
  random: () => number,
): Promise<void> {
  const endpoint =
    delivery.endpoint_id === null ? null : ((await findEndpoint(deps.db, delivery.endpoint_id)) ?? null);
  let outcome: AttemptOutcome;
  if (delivery.channel === 'webhook' && !endpoint)
    outcome = { delivered: false, statusCode: null, error: 'endpoint no longer exists' };
  else if (endpoint && endpoint.is_active !== 1)
    outcome = { delivered: false, statusCode: null, error: 'endpoint is disabled' };
  else
    outcome = await deps.channels[delivery.channel]
      .send({ delivery, event, endpoint })
      .catch((error: unknown) => ({
        delivered: false,
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
      }));
  deps.onAttempt?.(delivery, outcome);
  const now = deps.clock.now().getTime();
  const retryIn = deps.retrySchedule[delivery.attempts - 1];
  const finalFailure =
    outcome.disableEndpoint || (endpoint && endpoint.is_active !== 1) || retryIn === undefined;
  await repo.recordAttempt(deps.db, delivery.id, delivery.attempts, {
    status: outcome.delivered ? 'succeeded' : finalFailure ? 'failed' : 'pending',
    next_attempt_at:
      outcome.delivered || finalFailure ? null : now + Math.round(retryIn * 1000 * (1 + JITTER * random())),
    last_status_code: outcome.statusCode,
    last_error: outcome.delivered ? null : outcome.error,
    updated_at: now,
  });
  if (outcome.disableEndpoint && delivery.endpoint_id !== null)
    await repo.disableEndpoint(
      deps.db,
      delivery.endpoint_id,
      'endpoint disabled: the receiver answered 410 Gone',
      now,
    );
}
