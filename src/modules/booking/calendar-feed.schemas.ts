import { Type } from 'typebox';
import { Named } from '../../http/schemas.ts';

// The calendar feed's URL in the API (decisions §24).

export const CalendarFeedSchema = Named(
  'CalendarFeed',
  Type.Object(
    {
      url: Type.String({
        format: 'uri',
        description:
          'The secret address of the feed (iCalendar): anyone who has it sees the bookings, so share it ' +
          'only with the calendars that should. Rotate to replace it.',
      }),
    },
    {
      examples: [{ url: 'https://book.example/calendar/q5Jd0Yb0w8mR3sX1nZk2cV7tLpA4eH6uG9iF0oB3yWs.ics' }],
    },
  ),
);

export const FeedParams = Type.Object({
  token: Type.String({ maxLength: 100, description: 'the secret token of the feed URL' }),
});
