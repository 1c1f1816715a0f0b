import { createHash } from 'node:crypto';

// A vendor's liability waiver (decisions §23): while its text is not empty every booking request accepts
// it by name, and the booking keeps what was accepted: the SHA-256 of the exact text read in the request's
// own transaction, so a later edit of the text never changes what a booking shows was signed.

export const MAX_WAIVER_LENGTH = 20_000;
export const MAX_WAIVER_NAME = 200;
/** a User-Agent longer than this is kept cut: it is evidence, not a free store */
export const MAX_USER_AGENT = 500;

export interface WaiverAcceptanceInput {
  accepted?: unknown;
  name?: unknown;
}

/** Where and with what a request was made: the acceptance records them for the vendor. */
export interface RequestClient {
  ip: string;
  userAgent: string;
}

export interface WaiverAcceptance {
  name: string;
  acceptedAt: number;
  textSha256: string;
  clientIp: string;
  userAgent: string;
}

export const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * What is wrong with a request's acceptance of the waiver `text` (empty: none asked, anything given is
 * ignored), as the message of 400 on waiver_acceptance; undefined when it is accepted.
 */
export function waiverAcceptanceError(
  text: string,
  acceptance: WaiverAcceptanceInput | null | undefined,
): string | undefined {
  if (text === '') return undefined;
  if (acceptance?.accepted !== true)
    return 'This vendor asks every booking to accept its waiver: send {"accepted": true, "name": ...}.';
  const name = acceptance?.name;
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_WAIVER_NAME)
    return `Enter the full name of who accepts the waiver (1 to ${MAX_WAIVER_NAME} characters).`;
  return undefined;
}

/** The acceptance a booking keeps (waiverAcceptanceError found nothing), or null when no waiver is asked. */
export function acceptedWaiver(
  text: string,
  acceptance: WaiverAcceptanceInput | null | undefined,
  client: RequestClient,
  now: number,
): WaiverAcceptance | null {
  if (text === '' || !acceptance) return null;
  return {
    name: (acceptance.name as string).trim(),
    acceptedAt: now,
    textSha256: sha256Hex(text),
    clientIp: client.ip,
    userAgent: client.userAgent.slice(0, MAX_USER_AGENT),
  };
}
