// The notifications module's interface for the rest of the service (app, server, cli).

export { createEmailChannel } from './email-channel.ts';
export { endpointsRoutes } from './endpoints.routes.ts';
export { findMail, listMail, type StoredMail } from './mail-files.ts';
export {
  type BookingEventData,
  type BookingMailRole,
  bookingMail,
  MAIL_RECIPIENTS,
  type MailBooking,
  passwordResetMail,
} from './mail-messages.ts';
export { createMailer, MAIL_SEND_TIMEOUT_MS, type Mailer, type MailMessage } from './mailer.ts';
export { registerOutboxMetrics } from './outbox-metrics.ts';
export { createOutboxWorker, type OutboxWorker } from './outbox-worker.ts';
export { type HostResolver, lookupHost } from './public-address.ts';
export { createWebhookChannel, type WebhookChannelOptions } from './webhook-channel.ts';
export { signatureHeader, signWebhook } from './webhook-signature.ts';
