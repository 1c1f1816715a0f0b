import {
  type Expression,
  type ExpressionBuilder,
  type Selectable,
  type SqlBool,
  sql,
  type Updateable,
} from 'kysely';
import type {
  Attendance,
  BookingStatus,
  BookingStatusHistoryTable,
  BookingsTable,
  Database,
  Db,
} from '../../db/database.ts';
import { dialectOf, forUpdate } from '../../db/dialect.ts';
import { preparedInsert, preparedQuery } from '../../db/prepared-query.ts';
import type { Page } from '../../http/pagination.ts';
import { EXPIRING_STATUSES } from './booking.state-machine.ts';
import { endsByLatestOf, ofVendorListings } from './vendor-window.ts';

export type BookingValues = Omit<
  BookingsTable,
  | 'id'
  | 'promo_code_id'
  | 'promo_code'
  | 'price_lines'
  | 'click_traffic_type'
  | 'click_utm_source'
  | 'click_utm_medium'
  | 'click_utm_campaign'
  | 'confirmed_at'
  | 'refunded_cents'
  | TripColumn
  | 'attendance'
  | 'attendance_updated_at'
  | ChannelColumn
> & {
  // set by every request (other inserts, such as test fixtures, may leave them out: Generated)
  promo_code_id: number | null;
  promo_code: string | null;
  price_lines: string | null;
} & { [C in TripColumn | ChannelColumn]: Selectable<BookingsTable>[C] };

/** A channel booking's own columns (decisions §24): null on the platform's own requests. */
const CHANNEL_COLUMNS = [
  'channel_id',
  'reseller_reference',
  'octo_uuid',
  'contact_full_name',
  'contact_email',
  'contact_phone',
] as const;
type ChannelColumn = (typeof CHANNEL_COLUMNS)[number];

/** What a request stores of its answers and its waiver acceptance (decisions §23). */
const TRIP_COLUMNS = [
  'answers',
  'waiver_name',
  'waiver_accepted_at',
  'waiver_text_sha256',
  'waiver_client_ip',
  'waiver_user_agent',
] as const;
type TripColumn = (typeof TRIP_COLUMNS)[number];

const BOOKING_COLUMNS = [
  'listing_id',
  'listing_kind',
  'vendor_id',
  'customer_id',
  'status',
  'starts_at',
  'ends_at',
  'participants_count',
  'quantity',
  'customer_notes',
  'vendor_notes',
  'total_price_cents',
  'currency',
  'listing_click_id',
  'expires_at',
  'promo_code_id',
  'promo_code',
  'price_lines',
  ...TRIP_COLUMNS,
  ...CHANNEL_COLUMNS,
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof BookingValues)[];

// A booking request writes a booking and its first history entry, then reads the booking back: these
// statements are prepared once. The click copies are set by triggers.
const insertBooking = preparedInsert(
  (db, values: BookingValues) => db.insertInto('bookings').values(values),
  BOOKING_COLUMNS,
);

type HistoryValues = Omit<BookingStatusHistoryTable, 'id'>;
type NewHistoryValues = Omit<HistoryValues, 'booking_id'>;

/** What a history entry records besides its booking. */
const ENTRY_COLUMNS = [
  'from_status',
  'to_status',
  'note',
  'actor_id',
  'created_at',
] as const satisfies readonly (keyof NewHistoryValues)[];

const insertHistoryRow = preparedInsert(
  (db, values: HistoryValues) => db.insertInto('booking_status_history').values(values),
  ['booking_id', ...ENTRY_COLUMNS],
);

/** Writes one history entry and returns it as stored. */
export async function insertHistory(db: Db, values: HistoryValues): Promise<HistoryRow> {
  return { id: await insertHistoryRow(db, values), ...values };
}

export interface BookingParties {
  id: number;
  /** as stored: the sweeper may not have recorded an expiry yet (see statusAt) */
  status: BookingStatus;
  customer_id: number;
  vendor_id: number;
  starts_at: number;
  expires_at: number | null;
  /** the vendor's payment_ttl_minutes: an approval's deadline (decisions §11) */
  payment_ttl_minutes: number;
  /** the channel it came through (decisions §24), or null */
  channel_id: number | null;
}

/**
 * Who a booking belongs to and its state. With `forUpdate` on PostgreSQL the row stays locked until the
 * transaction ends, so concurrent transitions of one booking run one after the other and each sees the
 * state the previous one left (SQLite transactions already run one at a time).
 */
export async function findBookingParties(
  db: Db,
  id: number,
  options: { forUpdate?: boolean } = {},
): Promise<BookingParties | undefined> {
  const query = db
    .selectFrom('bookings')
    .select(['id', 'status', 'customer_id', 'vendor_id', 'starts_at', 'expires_at', 'channel_id'])
    .select((eb) =>
      eb
        .selectFrom('vendor_profiles')
        .select('vendor_profiles.payment_ttl_minutes')
        .whereRef('vendor_profiles.id', '=', 'bookings.vendor_id')
        .as('payment_ttl_minutes'),
    )
    .$narrowType<{ payment_ttl_minutes: number }>()
    .where('id', '=', id);
  return (options.forUpdate ? forUpdate(db, query) : query).executeTakeFirst();
}

/**
 * A booking in an active state still holds at `now` unless its deadline has passed (decisions §11): the
 * states with a deadline carry expires_at, the others null. The one SQL form of the rule (statusAt is its
 * JavaScript twin), for the guarded transitions, the status filter and every availability predicate; there
 * it is compared in the same index as the status (bookings_listing_window_idx), so a check still reads the
 * index alone. `now` may be a column of the query around it; `alias` names the bookings table there.
 */
export const holdsAt = (now: number | Expression<number>, alias = 'bookings') => {
  const expiresAt = sql.ref<number | null>(`${alias}.expires_at`);
  return sql<SqlBool>`(${expiresAt} is null or ${expiresAt} > ${now})`;
};

/**
 * The cancellation policy of a booking's listing as it is now (what a customer's cancel refunds), or
 * undefined when there is no such booking.
 */
export async function findCancellationPolicy(db: Db, id: number) {
  return db
    .selectFrom('bookings')
    .select((eb) => {
      const listing = () => eb.selectFrom('listings').whereRef('listings.id', '=', 'bookings.listing_id');
      return [
        listing().select('listings.free_cancellation_hours').as('free_cancellation_hours'),
        listing().select('listings.late_refund_percent').as('late_refund_percent'),
      ];
    })
    .where('bookings.id', '=', id)
    .$narrowType<{ free_cancellation_hours: number; late_refund_percent: number }>()
    .executeTakeFirst();
}

/**
 * Moves a booking to `to` only if its status is still one of `from` and its hold has not lapsed at `now`:
 * the guard that makes a transition lose cleanly (false) instead of overwriting one that won, or acting on
 * a booking that is already expired though not yet recorded so.
 */
export async function updateStatusIfIn(
  db: Db,
  id: number,
  from: readonly BookingStatus[],
  to: BookingStatus,
  now: number,
  values: Omit<Updateable<BookingsTable>, 'status'>,
): Promise<boolean> {
  const result = await db
    .updateTable('bookings')
    .set({ ...values, status: to })
    .where('id', '=', id)
    .where('status', 'in', from)
    .where(holdsAt(now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records as `expired` up to `limit` holds whose deadline passed by `now`, with their history entries:
 * how many were candidates, and the ids of those this call moved. Each UPDATE is guarded by the status and the
 * deadline, so of two sweepers (or a sweeper and a transition) only one moves a booking and writes its
 * entry; on PostgreSQL the candidates are claimed with FOR UPDATE SKIP LOCKED, so a second sweeper takes
 * other rows instead of waiting for these.
 */
export async function expireLapsedHolds(
  db: Db,
  from: readonly BookingStatus[],
  now: number,
  limit: number,
): Promise<{ claimed: number; moved: number[] }> {
  // the statuses as literals, so SQLite sees the query imply bookings_expiring_idx's condition
  const lapsing = sql<SqlBool>`status in (${sql.join(from.map((s) => sql.lit(s)))})`;
  let candidates = db
    .selectFrom('bookings')
    .select(['id', 'status'])
    .where(lapsing)
    .where('expires_at', '<=', now)
    .orderBy('expires_at')
    .limit(limit);
  if (dialectOf(db) === 'postgres') candidates = candidates.forUpdate().skipLocked();
  const rows = await candidates.execute();
  const moved: number[] = [];
  for (const row of rows) {
    const result = await db
      .updateTable('bookings')
      .set({ status: 'expired', updated_at: now })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) continue;
    await insertHistory(db, {
      booking_id: row.id,
      from_status: row.status,
      to_status: 'expired',
      note: 'expired',
      actor_id: null,
      created_at: now,
    });
    moved.push(row.id);
  }
  return { claimed: rows.length, moved };
}

/**
 * A booking with what its API object shows of its listing and its two parties (current values). Scalar
 * subqueries on primary keys rather than joins: on SQLite a join here cost more than the whole lookup
 * (docs/performance.md).
 */
export function bookingsView(db: Db) {
  return db.selectFrom('bookings');
}

export const VIEW_COLUMNS = (eb: ExpressionBuilder<Database, 'bookings'>) => {
  const customer = () => eb.selectFrom('users').whereRef('users.id', '=', 'bookings.customer_id');
  const vendor = () =>
    eb.selectFrom('vendor_profiles').whereRef('vendor_profiles.id', '=', 'bookings.vendor_id');
  return [
    'bookings.id',
    'bookings.status',
    'bookings.listing_id',
    'bookings.listing_kind',
    'bookings.vendor_id',
    'bookings.customer_id',
    'bookings.starts_at',
    'bookings.ends_at',
    'bookings.participants_count',
    'bookings.quantity',
    'bookings.customer_notes',
    'bookings.vendor_notes',
    'bookings.total_price_cents',
    'bookings.currency',
    'bookings.listing_click_id',
    'bookings.expires_at',
    'bookings.promo_code_id',
    'bookings.promo_code',
    'bookings.price_lines',
    ...TRIP_COLUMNS.map((c) => `bookings.${c}` as const),
    'bookings.attendance',
    'bookings.attendance_updated_at',
    ...CHANNEL_COLUMNS.map((c) => `bookings.${c}` as const),
    'bookings.created_at',
    'bookings.updated_at',
    eb
      .selectFrom('channels')
      .select('channels.name')
      .whereRef('channels.id', '=', 'bookings.channel_id')
      .as('channel_name'),
    eb
      .selectFrom('listings')
      .select('listings.title')
      .whereRef('listings.id', '=', 'bookings.listing_id')
      .as('listing_title'),
    vendor().select('vendor_profiles.slug').as('vendor_slug'),
    vendor().select('vendor_profiles.business_name').as('vendor_business_name'),
    vendor().select('vendor_profiles.contact_email').as('vendor_contact_email'),
    vendor().select('vendor_profiles.contact_phone').as('vendor_contact_phone'),
    vendor().select('vendor_profiles.time_zone').as('vendor_time_zone'),
    customer().select('users.first_name').as('customer_first_name'),
    customer().select('users.last_name').as('customer_last_name'),
    customer().select('users.email').as('customer_email'),
    customer().select('users.phone_number').as('customer_phone_number'),
  ] as const;
};

/** What VIEW_COLUMNS reads besides the booking's own columns; never null (foreign keys). */
export type ViewNames = {
  listing_title: string;
  vendor_slug: string;
  vendor_business_name: string;
  vendor_contact_email: string;
  vendor_contact_phone: string;
  vendor_time_zone: string;
  customer_first_name: string;
  customer_last_name: string;
  customer_email: string;
  customer_phone_number: string;
  /** null unless the booking came through a channel */
  channel_name: string | null;
};

/**
 * A booking row as its API object needs it: the table's columns (less the analytics copies), the listing's
 * title and the parties' contact details.
 */
export type BookingViewRow = Omit<
  Selectable<BookingsTable>,
  | 'click_traffic_type'
  | 'click_utm_source'
  | 'click_utm_medium'
  | 'click_utm_campaign'
  | 'confirmed_at'
  | 'refunded_cents'
> &
  ViewNames;

const bookingViewQuery = preparedQuery(
  (db, { id }: { id: number }) =>
    bookingsView(db).select(VIEW_COLUMNS).where('bookings.id', '=', id).$narrowType<ViewNames>(),
  ['id'],
);

export async function findBookingView(db: Db, id: number): Promise<BookingViewRow | undefined> {
  const [row] = await bookingViewQuery(db, { id });
  return row;
}

// An entry's values as arguments beside a booking's, prefixed: both have a created_at.
type EntryColumn = (typeof ENTRY_COLUMNS)[number];
type EntryArgs = { [C in EntryColumn as `history_${C}`]: NewHistoryValues[C] };
const entryArg = <C extends EntryColumn>(column: C) => `history_${column}` as const;

// PostgreSQL: the booking, its first history entry and its view in one statement. The CTE named after the
// table shadows it in the rest of the statement, so the history insert and the view read the new row.
const insertBookingWithHistoryQuery = preparedQuery(
  (db, a: BookingValues & EntryArgs) =>
    db
      .with('bookings', (db) =>
        db
          .insertInto('bookings')
          .values(Object.fromEntries(BOOKING_COLUMNS.map((c) => [c, a[c]])) as BookingValues)
          .returningAll(),
      )
      .with('history', (db) =>
        db
          .insertInto('booking_status_history')
          .columns(['booking_id', ...ENTRY_COLUMNS])
          .expression((eb) =>
            eb
              .selectFrom('bookings')
              .select((eb) => [
                'bookings.id',
                ...ENTRY_COLUMNS.map((column) => eb.val(a[entryArg(column)]).as(column)),
              ]),
          )
          .returning('id'),
      )
      .selectFrom('bookings')
      .select(VIEW_COLUMNS)
      .select((eb) => eb.selectFrom('history').select('history.id').as('history_id'))
      .$narrowType<ViewNames & { history_id: number }>(),
  [...BOOKING_COLUMNS, ...ENTRY_COLUMNS.map(entryArg)],
);

/**
 * Writes a new booking and its first history entry, and returns the booking's view and that entry as
 * stored. One statement on PostgreSQL (each is a round trip); three on SQLite, where DML in a CTE is not
 * supported and a statement costs microseconds.
 */
export async function insertBookingWithHistory(
  db: Db,
  values: BookingValues,
  history: NewHistoryValues,
): Promise<{ view: BookingViewRow; history: HistoryRow }> {
  if (dialectOf(db) === 'postgres') {
    const entry = Object.fromEntries(ENTRY_COLUMNS.map((c) => [entryArg(c), history[c]])) as EntryArgs;
    const [{ history_id, ...view }] = await insertBookingWithHistoryQuery(db, { ...values, ...entry });
    return { view, history: { id: history_id, booking_id: view.id, ...history } };
  }
  const id = await insertBooking(db, values);
  const entry = await insertHistory(db, { booking_id: id, ...history });
  const view = await findBookingView(db, id);
  if (!view) throw new Error(`booking ${id} not found right after its insert`);
  return { view, history: entry };
}

export interface BookingListFilter {
  /** the vendor's bookings, or else the customer's */
  vendorId?: number;
  customerId?: number;
  /** the status shown at `now`: a lapsed hold counts as expired (statusAt), recorded or not */
  status?: BookingStatus;
  /** only bookings whose starts_at is at or after this (epoch ms) */
  startsFrom?: number;
  now: number;
}

/** newest first, or soonest start first (the list's `ordering`) */
export type BookingOrdering = '-created_at' | 'starts_at';

function filtered(db: Db, filter: BookingListFilter) {
  let query = bookingsView(db);
  if (filter.vendorId !== undefined) query = query.where('bookings.vendor_id', '=', filter.vendorId);
  if (filter.customerId !== undefined) query = query.where('bookings.customer_id', '=', filter.customerId);
  if (filter.startsFrom !== undefined) query = query.where('bookings.starts_at', '>=', filter.startsFrom);
  const { status, now } = filter;
  if (status === 'expired')
    query = query.where((eb) =>
      eb.or([
        eb('bookings.status', '=', 'expired'),
        eb.and([eb('bookings.status', 'in', EXPIRING_STATUSES), eb('bookings.expires_at', '<=', now)]),
      ]),
    );
  else if (status !== undefined) {
    query = query.where('bookings.status', '=', status);
    if ((EXPIRING_STATUSES as readonly BookingStatus[]).includes(status)) query = query.where(holdsAt(now));
  }
  return query;
}

/** One page in the asked order (ties by id, the same way), and the total count. */
export async function listBookingViews(
  db: Db,
  filter: BookingListFilter,
  page: Page,
  ordering: BookingOrdering,
) {
  const [rows, total] = await Promise.all([
    (ordering === 'starts_at'
      ? filtered(db, filter)
          .select(VIEW_COLUMNS)
          .orderBy('bookings.starts_at', 'asc')
          .orderBy('bookings.id', 'asc')
      : filtered(db, filter)
          .select(VIEW_COLUMNS)
          .orderBy('bookings.created_at', 'desc')
          .orderBy('bookings.id', 'desc')
    )
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    filtered(db, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as BookingViewRow[], count: Number(total.n) };
}

export interface HistoryRow {
  id: number;
  booking_id: number;
  from_status: BookingStatus | null;
  to_status: BookingStatus;
  note: string;
  actor_id: number | null;
  created_at: number;
}

const HISTORY_COLUMNS = [
  'id',
  'booking_id',
  'from_status',
  'to_status',
  'note',
  'actor_id',
  'created_at',
] as const;

// Sorted in JS: on SQLite an ORDER BY here costs several times the indexed lookup itself, with or
// without index value samples (measured again after every connection dropped them).
const historyOfOneQuery = preparedQuery(
  (db, { id }: { id: number }) =>
    db.selectFrom('booking_status_history').select(HISTORY_COLUMNS).where('booking_id', '=', id),
  ['id'],
);

/** The status history of several bookings in one query, oldest entry first. */
export async function historyOf(db: Db, bookingIds: number[]): Promise<HistoryRow[]> {
  if (bookingIds.length === 0) return [];
  if (bookingIds.length === 1)
    return (await historyOfOneQuery(db, { id: bookingIds[0] })).sort((a, b) => a.id - b.id);
  return db
    .selectFrom('booking_status_history')
    .select(HISTORY_COLUMNS)
    .where('booking_id', 'in', bookingIds)
    .orderBy('booking_id')
    .orderBy('id')
    .execute();
}

/** What the payments module needs of a booking. */
export async function findPaymentFacts(db: Db, id: number) {
  return db
    .selectFrom('bookings')
    .select(['id', 'customer_id', 'vendor_id', 'status', 'expires_at', 'total_price_cents', 'currency'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * A vendor's bookings holding at `now` (requested, approved, confirmed) that start in [from, to), or end
 * in it for equipment (returns): the manifest of a local day, ordered by starts_at, then listing title
 * and id. Both halves read the vendor's listings' window index (vendor-window.ts).
 */
export async function manifestViews(
  db: Db,
  vendorId: number,
  day: { from: number; to: number },
  statuses: readonly BookingStatus[],
  now: number,
): Promise<BookingViewRow[]> {
  const base = () =>
    bookingsView(db)
      .select(VIEW_COLUMNS)
      .where((eb) => ofVendorListings(eb, vendorId))
      .where('bookings.status', 'in', statuses)
      .where(holdsAt(now));
  const [starting, returning] = await Promise.all([
    base()
      // a booking starting in the day ends after its start, and at most the longest span later
      .where('bookings.ends_at', '>=', day.from)
      .where((eb) => endsByLatestOf(eb, vendorId, day.to))
      .where('bookings.starts_at', '>=', day.from)
      .where('bookings.starts_at', '<', day.to)
      .execute(),
    base()
      .where('bookings.listing_kind', '=', 'equipment')
      .where('bookings.ends_at', '>=', day.from)
      .where('bookings.ends_at', '<', day.to)
      .where('bookings.starts_at', '<', day.from)
      .execute(),
  ]);
  return ([...starting, ...returning] as BookingViewRow[]).sort(
    (a, b) => a.starts_at - b.starts_at || a.listing_title.localeCompare(b.listing_title) || a.id - b.id,
  );
}

/** What the attendance rule reads of a booking, besides its parties (findBookingParties). */
export async function findAttendanceFacts(db: Db, id: number) {
  return db
    .selectFrom('bookings')
    .select(['listing_kind', 'attendance'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Sets a booking's attendance (its caller holds the booking's lock and has checked the rule). */
export async function updateAttendance(db: Db, id: number, attendance: Attendance, now: number) {
  await db
    .updateTable('bookings')
    .set({ attendance, attendance_updated_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** A vendor's time zone by profile id; undefined when there is no such profile. */
export async function vendorTimeZone(db: Db, vendorId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('vendor_profiles')
    .select('time_zone')
    .where('id', '=', vendorId)
    .executeTakeFirst();
  return row?.time_zone;
}
