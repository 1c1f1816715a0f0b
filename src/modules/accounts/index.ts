// The accounts module's interface for the rest of the service.
export { accountsRoutes } from './accounts.routes.ts';
export { VendorProfileSchema } from './accounts.schemas.ts';
export {
  type AccountsDeps,
  authenticate,
  createAccountsDeps,
  createStaff,
  findVendorById,
  findVendorBySlug,
  findVendorLocale,
  issuePasswordResetToken,
  toVendorProfile,
  type VendorProfile,
} from './accounts.service.ts';
export { deleteChannelAccount, insertChannelAccount } from './channel-account.ts';
export { slugify } from './slug.ts';
export { teamRoutes } from './team.routes.ts';
export { issueInvitationToken } from './team.service.ts';
export { loadSigningKey, type TokenKeys } from './tokens.ts';
export { webSessionRoutes } from './web-session.routes.ts';
