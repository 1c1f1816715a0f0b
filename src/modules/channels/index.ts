// The channels module's interface for the rest of the service (decisions §24).
export { channelRoutes } from './channels.routes.ts';
export { type ChannelIdentity, type ChannelsDeps, findChannelByKey } from './channels.service.ts';
