// The notifications module's interface: what app.ts, cli.ts and the outbox worker use.
export { findEndpoint } from './endpoints.repository.ts';
export { endpointsRoutes } from './endpoints.routes.ts';
export { type HostResolver, lookupHost } from './public-address.ts';
export { createWebhookChannel, type WebhookChannelOptions } from './webhook-channel.ts';
export { signatureHeader, signWebhook } from './webhook-signature.ts';
