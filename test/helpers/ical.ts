import ICAL from 'ical.js';
import { expect } from 'vitest';

// Calendars read back as a calendar application reads them (ical.js), for tests of the feed and of the
// confirmation mail's .ics: the properties as plain values, the instants as ISO strings in UTC.

export interface ParsedEvent {
  uid: string;
  start: string;
  end: string;
  /** whether DTSTART and DTEND are written in UTC (a trailing Z), not floating or in a zone */
  utc: boolean;
  summary: string;
  status: string;
  url: string | null;
  location: string | null;
}

export interface ParsedCalendar {
  prodId: string;
  method: string | null;
  name: string | null;
  events: ParsedEvent[];
}

const text = (value: unknown) => (value === null || value === undefined ? null : String(value));

export function parseCalendar(ics: string): ParsedCalendar {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  expect(calendar.name).toBe('vcalendar');
  return {
    prodId: String(calendar.getFirstPropertyValue('prodid')),
    method: text(calendar.getFirstPropertyValue('method')),
    name: text(calendar.getFirstPropertyValue('x-wr-calname')),
    events: calendar.getAllSubcomponents('vevent').map((vevent) => {
      const event = new ICAL.Event(vevent);
      return {
        uid: event.uid,
        start: event.startDate.toJSDate().toISOString(),
        end: event.endDate.toJSDate().toISOString(),
        utc:
          event.startDate.zone === ICAL.Timezone.utcTimezone &&
          event.endDate.zone === ICAL.Timezone.utcTimezone,
        summary: event.summary,
        status: String(vevent.getFirstPropertyValue('status')),
        url: text(vevent.getFirstPropertyValue('url')),
        location: text(vevent.getFirstPropertyValue('location')),
      };
    }),
  };
}
