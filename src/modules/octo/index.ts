// The OCTO supplier API's interface for the rest of the service (decisions §24).
export { octoRoutes } from './octo.routes.ts';
export type { OctoDeps } from './octo.service.ts';
