import { Type } from 'typebox';
import { DateTimeOut, Named, Nullable, Ref, StringEnum } from '../../http/schemas.ts';
import { MAX_QUESTIONS } from '../../lib/questions.ts';
import { ATTENDANCES } from './attendance.ts';
import { MAX_WAIVER_NAME } from './waiver.ts';

// The day of the trip in the API (decisions §23): what a request answers and accepts, what a booking
// shows of it, the attendance endpoint's body.

/** The members a booking request (and a quote) adds for the day of the trip. */
export const TRIP_REQUEST_FIELDS = {
  answers: Type.Optional(
    Nullable(
      Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), {
        maxProperties: MAX_QUESTIONS,
        description:
          'answers to the listing\'s questions by code: {"code": value} for a question per booking, ' +
          '{"code": [value, ...]} with one value per participant (adventures) or unit (equipment) for one ' +
          'per participant. A missing required answer, a wrong kind, an unknown choice, a text over 500 ' +
          'characters, a wrong count or an unknown code → 400 on answers.<code>.',
      }),
    ),
  ),
  waiver_acceptance: Type.Optional(
    Nullable(
      Type.Object(
        {
          accepted: Type.Optional(Type.Boolean()),
          name: Type.Optional(Type.String({ maxLength: MAX_WAIVER_NAME })),
        },
        {
          description:
            'required while the vendor\'s waiver_text is not empty: {"accepted": true, "name": the full ' +
            'name of who accepts it}, else 400 on waiver_acceptance; ignored when the vendor has no waiver',
        },
      ),
    ),
  ),
};

const AnswerValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const WaiverSchema = Named(
  'WaiverAcceptance',
  Type.Object(
    {
      name: Type.String({ description: 'the full name typed by who accepted it' }),
      accepted_at: DateTimeOut,
      text_sha256: Type.String({
        pattern: '^[0-9a-f]{64}$',
        description:
          'SHA-256 (hex) of the exact waiver text accepted, as it was when the booking was requested',
      }),
      client_ip: Type.Optional(
        Type.String({
          description: "the vendor's view only: the client address of the request that accepted it",
        }),
      ),
      user_agent: Type.Optional(
        Type.String({
          description: "the vendor's view only: that request's User-Agent (at most 500 characters)",
        }),
      ),
    },
    {
      description:
        "A booking's acceptance of its vendor's waiver (decisions §23). The customer sees name, accepted_at " +
        'and text_sha256; the vendor also where it was accepted from.',
      examples: [
        {
          name: 'Sam Rivera',
          accepted_at: '2026-05-04T12:00:00.000Z',
          text_sha256: 'a'.repeat(64),
          client_ip: '203.0.113.7',
          user_agent: 'Mozilla/5.0 (iPhone)',
        },
      ],
    },
  ),
);

/** The members a booking object adds for the day of the trip. */
export const TRIP_BOOKING_FIELDS = {
  answers: Type.Record(Type.String(), Type.Union([AnswerValue, Type.Array(Nullable(AnswerValue))]), {
    description: 'the answers its request gave, by question code ({} when none)',
  }),
  waiver: Nullable(Ref(WaiverSchema)),
  attendance: StringEnum(ATTENDANCES, {
    description: 'pending (default), checked_in, no_show or returned (equipment): who came on the day',
  }),
  attendance_updated_at: Nullable(DateTimeOut),
};

export const TRIP_BOOKING_EXAMPLE = {
  answers: { cert: ['Open Water', 'Advanced'], allergies: 'none' },
  waiver: null,
  attendance: 'pending',
  attendance_updated_at: null,
};

export const AttendanceBody = Type.Object(
  {
    status: StringEnum(ATTENDANCES, {
      description:
        'checked_in (from 24 h before starts_at), no_show (from starts_at), returned (equipment already ' +
        'checked in), pending (undo). Only for confirmed bookings; too early or from the wrong state → 409 ' +
        'invalid_state.',
    }),
  },
  { examples: [{ status: 'checked_in' }] },
);
