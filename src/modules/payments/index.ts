// The payments module's interface.
export { MockGateway, type PaymentGateway, SIGNATURE_HEADER, signWebhook } from './gateway.ts';
export {
  EVENT_TYPES,
  type GatewayEventType,
  type GatewayOutcome,
  OUTCOME_EVENTS,
} from './payment-status.ts';
export type { PaymentsDeps } from './payments.deps.ts';
export { latestPaymentStatuses } from './payments.repository.ts';
export { paymentsRoutes } from './payments.routes.ts';
export { cancellationRefunds, reconcilePendingRefunds } from './refunds.service.ts';
