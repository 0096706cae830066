/**
 * Opaque credentials: 256 random bits each, base64url, with a prefix saying what they are (so a
 * leaked one is recognisable in logs and by secret scanners). Only their SHA-256 is stored.
 */
import { randomToken } from '../core/ids.ts';

export const newAccessToken = (): string => `pat_${randomToken(32)}`;
export const newRefreshToken = (): string => `prt_${randomToken(32)}`;
export const newAuthorizationCode = (): string => `pac_${randomToken(32)}`;
export const newRequestId = (): string => randomToken(24);
export const newFamilyId = (): string => `fam_${randomToken(16)}`;
