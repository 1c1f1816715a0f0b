import type { Db } from '../../db/database.ts';
import { preparedQuery } from '../../db/prepared-query.ts';
import { invalidFields } from '../../http/errors.ts';
import { formatDateTime } from '../../lib/datetime.ts';
import { type Answers, answersErrors, normalizeAnswers } from '../../lib/questions.ts';
import type { ListingRef } from '../catalog/index.ts';
import type { BookingViewRow } from './booking.repository.ts';
import { type WaiverAcceptanceInput, waiverAcceptanceError } from './waiver.ts';

// What a booking request answers before the trip (decisions §23): the listing's questions and the
// vendor's waiver, checked by the request and the quote alike (assessRequest), and how a booking shows
// them.

/** The members a request (and a quote) gives for the day of the trip. */
export interface TripInput {
  answers?: Record<string, unknown> | null;
  waiver_acceptance?: WaiverAcceptanceInput | null;
}

/** A request's checked answers, and the waiver text it accepted as read in its own transaction. */
export interface TripTerms {
  answers: Answers;
  waiverText: string;
}

const waiverTextQuery = preparedQuery(
  (db, { id }: { id: number }) => db.selectFrom('vendor_profiles').select('waiver_text').where('id', '=', id),
  ['id'],
);

/** The vendor's waiver text now, in `db` (a request's transaction: the text it accepts). */
export async function vendorWaiverText(db: Db, vendorId: number): Promise<string> {
  const [row] = await waiverTextQuery(db, { id: vendorId });
  return row?.waiver_text ?? '';
}

/**
 * The request's answers to the listing's questions, `count` per participant question (its participants,
 * or units of equipment), and its acceptance of the vendor's waiver: one 400 naming every bad member
 * (`answers.<code>`, `waiver_acceptance`).
 */
export async function checkTripTerms(
  db: Db,
  listing: ListingRef,
  input: TripInput,
  count: number,
): Promise<TripTerms> {
  const errors = answersErrors(listing.questions, input.answers, count);
  const waiverText = await vendorWaiverText(db, listing.vendorId);
  const waiverError = waiverAcceptanceError(waiverText, input.waiver_acceptance);
  if (waiverError) errors.waiver_acceptance = waiverError;
  if (Object.keys(errors).length) throw invalidFields(errors);
  return { answers: normalizeAnswers(listing.questions, input.answers), waiverText };
}

/** Who looks at a booking: only its vendor sees where the waiver was accepted from. */
export type Viewer = 'vendor' | 'customer';

/** A booking's answers, waiver and attendance as the API shows them to its vendor (see asSeenBy). */
export function tripFieldsOut(row: BookingViewRow) {
  return {
    answers: JSON.parse(row.answers) as Answers,
    waiver: waiverOut(row),
    attendance: row.attendance,
    attendance_updated_at:
      row.attendance_updated_at === null ? null : formatDateTime(row.attendance_updated_at),
  };
}

interface WaiverOut {
  name: string;
  accepted_at: string;
  text_sha256: string;
  /** the vendor's only */
  client_ip?: string;
  user_agent?: string;
}

function waiverOut(row: BookingViewRow): WaiverOut | null {
  if (row.waiver_name === null || row.waiver_accepted_at === null || row.waiver_text_sha256 === null)
    return null;
  return {
    name: row.waiver_name,
    accepted_at: formatDateTime(row.waiver_accepted_at),
    text_sha256: row.waiver_text_sha256,
    client_ip: row.waiver_client_ip ?? '',
    user_agent: row.waiver_user_agent ?? '',
  };
}

/**
 * A booking as `viewer` may see it: the customer does not see the address and User-Agent recorded with
 * the waiver's acceptance (evidence kept for the vendor).
 */
export function asSeenBy<B extends { waiver: WaiverOut | null }>(booking: B, viewer: Viewer): B {
  if (viewer === 'vendor' || booking.waiver === null) return booking;
  const { client_ip: _ip, user_agent: _agent, ...shown } = booking.waiver;
  return { ...booking, waiver: shown };
}
