/**
 * The audit trail: one writer every service records sensitive actions through, with the principal
 * that did them (trail.ts), and the log operators read (service.ts, routes.ts).
 */
import type { Feature } from '../http/context.ts';
import { auditRoutes, auditTag } from './routes.ts';
import type { AuditLog } from './service.ts';

export { AUDIT_ACTIONS, type AuditAction } from './actions.ts';
export { AuditLog, type AuditQuery } from './service.ts';
export { type AuditSubject, AuditTrail, auditActorOf } from './trail.ts';

export function auditFeature(audit: AuditLog): Feature {
  return { name: 'audit', openApiTag: auditTag, routes: auditRoutes(audit) };
}
