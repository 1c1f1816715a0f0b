import { Type } from 'typebox';
import { DateTimeOut, Named, Nullable, Ref, serviceChecks, Text } from '../../http/schemas.ts';
import { MAX_INTERVALS_A_DAY } from '../../lib/opening-hours.ts';
import { WEEKDAYS } from '../../lib/schedule.ts';

export const Email = Type.String({ format: 'email', maxLength: 254 });
// The service checks a new password (passwords.ts) and names each rule it breaks; the document states
// the same rules.
export const NewPassword = Type.String({
  minLength: 1,
  maxLength: 1024,
  writeOnly: true,
  description: 'at least 8 characters, not entirely numeric, different from the email',
  ...serviceChecks({ minLength: 8, pattern: '\\D' }),
});
// Logging in checks the password against the stored hash only: any non-empty string is a fair attempt.
const Password = Type.String({ minLength: 1, maxLength: 1024, writeOnly: true });
const OptionalText = (max: number) => Type.Optional(Text(max));
const ContactEmail = Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 254 })]);
// The service checks both against the platform's lists (vendor-locale.ts) and names the field it refuses.
const CurrencyIn = Type.String({
  minLength: 1,
  maxLength: 16,
  description:
    'ISO 4217 code, any case (stored lower-case); default usd. The currency of every listing and booking ' +
    'of the vendor; a booking keeps the currency it was requested in.',
  ...serviceChecks({ pattern: '^\\s*[A-Za-z]{3}\\s*$' }),
});
const TimeZoneIn = Type.String({
  minLength: 1,
  maxLength: 64,
  description:
    'IANA time zone name such as Europe/Lisbon, any case; default UTC. Aliases are stored as the zone ' +
    'they name (utc → UTC, US/Pacific → America/Los_Angeles); UTC offsets such as +01:00 are refused.',
});

// How long a vendor's bookings hold their window unanswered or unpaid (decisions §11).
const TTL_LIMITS = { minimum: 1, maximum: 10080 };
const RequestTtlIn = Type.Integer({
  ...TTL_LIMITS,
  description:
    'Minutes a requested booking holds its window while the vendor has not answered (1–10080, default ' +
    '1440); then it expires. Applies to bookings requested from then on.',
});
const PaymentTtlIn = Type.Integer({
  ...TTL_LIMITS,
  description:
    'Minutes an approved booking holds its window while the customer has not paid (1–10080, default ' +
    '1440); then it expires. Applies to bookings approved from then on.',
});

const PROFILE_EXAMPLE = {
  business_name: 'Blue Lagoon Watersports',
  slug: 'blue-lagoon-watersports',
  description: 'Kayaks, paddle boards and guided tours on the lagoon.',
  contact_phone: '+1 555 0100',
  contact_email: 'hello@bluelagoon.example',
  address_line1: '1 Harbour Road',
  address_line2: '',
  city: 'Port Blue',
  state: 'CA',
  postal_code: '90210',
  country: 'US',
  currency: 'usd',
  time_zone: 'America/Los_Angeles',
  request_ttl_minutes: 1440,
  payment_ttl_minutes: 1440,
  opening_hours: null,
  waiver_text: '',
  created_at: '2026-05-01T09:00:00.000Z',
  updated_at: '2026-05-01T09:00:00.000Z',
};

const DAY_HOURS = Type.Array(
  Type.Array(Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$' }), {
    minItems: 2,
    maxItems: 2,
  }),
  { maxItems: MAX_INTERVALS_A_DAY },
);

export const OpeningHoursSchema = Named(
  'OpeningHours',
  Type.Object(Object.fromEntries(WEEKDAYS.map((day) => [day, DAY_HOURS])), {
    description:
      "A vendor's opening hours for equipment pick-up and return (decisions §20), local times of its " +
      'time_zone: every day mon..sun with up to three non-overlapping [open, close] intervals ([] when ' +
      'closed; "24:00" closes at midnight). A request starting outside [open, close) or ending outside ' +
      '[open, close] of its local date is a 400 on starts_at or ends_at naming the hours. Errors name the ' +
      'day (opening_hours.sun).',
    examples: [
      {
        ...Object.fromEntries(WEEKDAYS.map((day) => [day, [['09:00', '18:00']]])),
        sun: [],
      },
    ],
  }),
);

export const VendorProfileSchema = Named(
  'VendorProfile',
  Type.Object(
    {
      business_name: Type.String(),
      slug: Type.String({ description: 'derived from business_name; used in storefront paths' }),
      description: Type.String(),
      contact_phone: Type.String(),
      contact_email: Type.String(),
      address_line1: Type.String(),
      address_line2: Type.String(),
      city: Type.String(),
      state: Type.String(),
      postal_code: Type.String(),
      country: Type.String(),
      currency: Type.String({
        description: "lower-case ISO 4217 code: the currency of all the vendor's prices and bookings",
      }),
      time_zone: Type.String({ description: "IANA time zone name of the vendor's departures and pick-ups" }),
      request_ttl_minutes: Type.Integer({
        description: 'minutes a requested booking holds its window unanswered before it expires',
      }),
      payment_ttl_minutes: Type.Integer({
        description: 'minutes an approved booking holds its window unpaid before it expires',
      }),
      opening_hours: Type.Union([Ref(OpeningHoursSchema), Type.Null()], {
        description: 'when equipment can be picked up and returned; null: always open',
      }),
      waiver_text: Type.String({
        description:
          "the liability waiver every booking request must accept (decisions §23); '' (default): none",
      }),
      created_at: DateTimeOut,
      updated_at: DateTimeOut,
    },
    {
      description: 'A vendor profile; storefronts show it publicly (currency and time zone included).',
      examples: [PROFILE_EXAMPLE],
    },
  ),
);

const userFieldsOut = {
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone_number: Type.String(),
  is_vendor: Type.Boolean(),
  is_customer: Type.Boolean(),
  vendor_role: Nullable(
    Type.Union([Type.Literal('owner'), Type.Literal('manager'), Type.Literal('staff')], {
      description: "a vendor account's role on its vendor's team (decisions §25); null for customers",
    }),
  ),
};

const CUSTOMER_EXAMPLE = {
  id: 7,
  email: 'sam@example.com',
  first_name: 'Sam',
  last_name: 'Rivers',
  phone_number: '',
  is_vendor: false,
  is_customer: true,
  vendor_role: null,
  vendor_profile: null,
  date_joined: '2026-05-02T10:30:00.000Z',
};

export const UserSchema = Named(
  'User',
  Type.Object(
    {
      ...userFieldsOut,
      vendor_profile: Nullable(Ref(VendorProfileSchema)),
      date_joined: DateTimeOut,
    },
    {
      description:
        "An account; vendor_profile is set for vendor accounts only: for a team member, its vendor's.",
      examples: [CUSTOMER_EXAMPLE],
    },
  ),
);

/** A vendor account as its registration answers it: the profile is always there. */
export const VendorUserSchema = Named(
  'VendorUser',
  Type.Object(
    { ...userFieldsOut, vendor_profile: Ref(VendorProfileSchema), date_joined: DateTimeOut },
    {
      description: 'A vendor account with its profile.',
      examples: [
        {
          ...CUSTOMER_EXAMPLE,
          id: 3,
          email: 'owner@bluelagoon.example',
          first_name: 'Alex',
          last_name: 'Marin',
          is_vendor: true,
          is_customer: false,
          vendor_role: 'owner',
          vendor_profile: PROFILE_EXAMPLE,
        },
      ],
    },
  ),
);

const userFields = {
  email: Email,
  password: NewPassword,
  first_name: OptionalText(150),
  last_name: OptionalText(150),
  phone_number: OptionalText(40),
};

/** A staff account as the command line makes it (create-admin): the same rules as a registration's. */
export const StaffAccountInput = Type.Object({ email: userFields.email, password: userFields.password });

const profileFields = {
  description: OptionalText(5000),
  contact_phone: OptionalText(40),
  contact_email: Type.Optional(ContactEmail),
  address_line1: OptionalText(200),
  address_line2: OptionalText(200),
  city: OptionalText(120),
  state: OptionalText(120),
  postal_code: OptionalText(20),
  country: OptionalText(120),
  waiver_text: Type.Optional(
    Type.String({
      maxLength: 20_000,
      description:
        "the liability waiver (at most 20,000 characters, trimmed; '' removes it). While it is not empty " +
        'every booking request must carry waiver_acceptance; each booking keeps the SHA-256 of the text it ' +
        'accepted.',
    }),
  ),
  currency: Type.Optional(CurrencyIn),
  time_zone: Type.Optional(TimeZoneIn),
  request_ttl_minutes: Type.Optional(RequestTtlIn),
  payment_ttl_minutes: Type.Optional(PaymentTtlIn),
  opening_hours: Type.Optional(
    Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
      description:
        'null (always open) or the hours of all seven days, {"mon": [["09:00", "18:00"]], ..., "sun": []}: ' +
        'up to three non-overlapping intervals a day; see OpeningHours. Errors name the day (opening_hours.sun).',
    }),
  ),
};

export const RegisterCustomerBody = Type.Object(userFields, {
  examples: [{ email: 'sam@example.com', password: 'correct-horse-battery', first_name: 'Sam' }],
});

export const RegisterVendorBody = Type.Object(
  {
    ...userFields,
    business_name: Type.String({ minLength: 1, maxLength: 200 }),
    ...profileFields,
  },
  {
    examples: [
      {
        email: 'owner@bluelagoon.example',
        password: 'correct-horse-battery',
        business_name: 'Blue Lagoon Watersports',
        city: 'Port Blue',
        country: 'US',
        currency: 'USD',
        time_zone: 'America/Los_Angeles',
      },
    ],
  },
);

export const UpdateVendorProfileBody = Type.Object(
  {
    business_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...profileFields,
  },
  {
    examples: [
      {
        description: 'Kayaks, paddle boards, snorkelling gear and guided tours.',
        currency: 'eur',
        time_zone: 'Europe/Lisbon',
        request_ttl_minutes: 720,
      },
    ],
  },
);

export const LoginBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Password },
  { examples: [{ email: 'sam@example.com', password: 'correct-horse-battery' }] },
);
export const UpdateMeBody = Type.Object(
  { first_name: OptionalText(150), last_name: OptionalText(150), phone_number: OptionalText(40) },
  { examples: [{ first_name: 'Sam', last_name: 'Rivers', phone_number: '+1 555 0199' }] },
);
export const ChangePasswordBody = Type.Object(
  { current_password: Password, new_password: NewPassword },
  { examples: [{ current_password: 'correct-horse-battery', new_password: 'staple-gun-lantern' }] },
);
export const PasswordResetBody = Type.Object({ email: Email }, { examples: [{ email: 'sam@example.com' }] });
export const PasswordResetConfirmBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the reset mail' }),
    new_password: NewPassword,
  },
  {
    examples: [{ token: 'Vb0k3m1fQWm6S8n0d2n0Yh1Qv2cX9yJm4b7Jq0tL5aE', new_password: 'staple-gun-lantern' }],
  },
);
export const PasswordResetAcceptedSchema = Named(
  'PasswordResetAccepted',
  Type.Object(
    {
      detail: Type.String({
        description: 'a sentence for people; the same whether or not the account exists',
      }),
    },
    {
      description: 'The request is taken; a mail follows only if an account has that email.',
      examples: [{ detail: 'If an account exists for that address, we sent a link.' }],
    },
  ),
);
export const RefreshBody = Type.Object(
  { refresh: Type.String({ minLength: 1, maxLength: 4096 }) },
  { examples: [{ refresh: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXBlIjoicmVmcmVzaCJ9.c2lnbmF0dXJl' }] },
);
export const WebAccessSchema = Named(
  'WebAccess',
  Type.Object(
    { access: Type.String({ description: 'the bearer token; the page keeps it in memory only' }) },
    {
      description: 'The refresh token is in the HttpOnly session cookie, never in the body.',
      examples: [{ access: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXBlIjoiYWNjZXNzIn0.c2lnbmF0dXJl' }],
    },
  ),
);

export const TokenPairSchema = Named(
  'TokenPair',
  Type.Object(
    {
      refresh: Type.String({ description: 'exchanged at /token/refresh/ for a new pair' }),
      access: Type.String({ description: 'the bearer token for every other request' }),
    },
    {
      examples: [
        {
          refresh: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXBlIjoicmVmcmVzaCJ9.c2lnbmF0dXJl',
          access: 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXBlIjoiYWNjZXNzIn0.c2lnbmF0dXJl',
        },
      ],
    },
  ),
);
