import type { RouteTable } from '../../../rest-mapping/types.js';

/**
 * Single and async verification answer their object bare, without a `data` envelope: SPEC.md
 * gives these responses as the object's own fields ("Single verification response: status").
 */
export const verificationRoutes: RouteTable = {
  'Mutation.verify_email': { method: 'POST', path: '/email-verification/verify', status: 200, envelope: 'raw', extraErrors: [402] },
  'Mutation.verify_email_async': { method: 'POST', path: '/email-verification/verify-async', status: 200, envelope: 'raw', extraErrors: [402] },
  'Query.async_email_verification': { method: 'GET', path: '/email-verification/verify-async/:email_verification_id', envelope: 'raw' },
};
