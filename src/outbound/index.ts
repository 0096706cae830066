/**
 * The outbound fetch guard's public face: every fetch of a user-supplied URL (images, webhooks)
 * goes through guardedFetch with a FetchPolicy.
 */
export { isPrivateAddress } from './address.ts';
export { fetchImageBytes, type GuardedFetchInit, type GuardedResponse, guardedFetch } from './guard.ts';
export {
  defaultImagePolicy,
  type FetchPolicy,
  type FetchRefusalReason,
  FetchRefused,
  IMAGE_FETCH_MAX_BYTES,
  IMAGE_FETCH_TIMEOUT_MS,
} from './policy.ts';
export { type VettedTarget, vetTarget } from './vet.ts';
