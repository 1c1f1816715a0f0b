import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/lib/datetime.ts';
import { localDateAt, localDay, localTimeAt } from '../../src/lib/local-days.ts';
import { groupManifest, type ManifestEntry } from '../../src/modules/booking/manifest.ts';

// decisions §23: the day's manifest grouped by local date: departures, pick-ups, returns.

const ZONE = 'Europe/Lisbon';
const day = localDay('2026-03-29', ZONE)!; // the spring change: 23 hours

describe('local day of the manifest', () => {
  it('is the range of the zone’s date, as long as the day is there', () => {
    expect(day.to - day.from).toBe(23 * HOUR_MS);
    expect(day.from).toBe(Temporal.ZonedDateTime.from('2026-03-29T00:00[Europe/Lisbon]').epochMilliseconds);
    expect(localDay('2026-10-25', ZONE)!.to - localDay('2026-10-25', ZONE)!.from).toBe(25 * HOUR_MS);
    expect(localDateAt(day.to - 1, ZONE)).toBe('2026-03-29');
    expect(localDateAt(day.to, ZONE)).toBe('2026-03-30');
    expect(localTimeAt(day.from + 2 * HOUR_MS, ZONE)).toBe('03:00');
  });

  it('refuses what is not a real YYYY-MM-DD date', () => {
    for (const bad of ['2026-02-30', '20260701', '2026-7-1', '2026-07-01T00:00', '', 'today'])
      expect(localDay(bad, ZONE)).toBeNull();
  });
});

const H = HOUR_MS;
const entry = (over: Partial<ManifestEntry> & { id: number }) => ({
  kind: 'adventure' as const,
  listingId: 1,
  startsAt: day.from + 9 * H,
  endsAt: day.from + 12 * H,
  participants: 2,
  ...over,
});

describe('groupManifest', () => {
  it('groups departures by listing and start, and splits equipment into pick-ups and returns', () => {
    const entries = [
      entry({
        id: 1,
        kind: 'equipment',
        startsAt: day.from - 20 * H,
        endsAt: day.from + 8 * H,
        participants: null,
      }),
      entry({ id: 2 }),
      entry({ id: 3, participants: 3 }),
      entry({ id: 4, listingId: 2 }),
      entry({
        id: 5,
        kind: 'equipment',
        startsAt: day.from + 9 * H,
        endsAt: day.from + 17 * H,
        participants: null,
      }),
      entry({
        id: 6,
        kind: 'equipment',
        startsAt: day.from + 10 * H,
        endsAt: day.to + 5 * H,
        participants: null,
      }),
      entry({ id: 7, startsAt: day.from + 14 * H, endsAt: day.from + 16 * H }),
    ];
    const groups = groupManifest(entries, day);
    expect(
      groups.departures.map((d) => [
        d.listingId,
        d.startsAt - day.from,
        d.participants,
        d.entries.map((e) => e.id),
      ]),
    ).toEqual([
      [1, 9 * H, 5, [2, 3]],
      [2, 9 * H, 2, [4]],
      [1, 14 * H, 2, [7]],
    ]);
    expect(groups.pickups.map((e) => e.id)).toEqual([5, 6]);
    expect(groups.returns.map((e) => e.id)).toEqual([1, 5]);
  });

  it('puts every entry of the day somewhere, once per role, and nothing of other days', () => {
    const arb = fc.array(
      fc.record({
        id: fc.nat(),
        kind: fc.constantFrom('adventure', 'equipment') as fc.Arbitrary<'adventure' | 'equipment'>,
        listingId: fc.integer({ min: 1, max: 3 }),
        startsAt: fc.integer({ min: day.from - 30 * H, max: day.to + 30 * H }),
        length: fc.integer({ min: 1, max: 60 * H }),
        participants: fc.integer({ min: 1, max: 9 }),
      }),
      { maxLength: 40 },
    );
    fc.assert(
      fc.property(arb, (raw) => {
        const entries = raw
          .map((r) => ({
            ...r,
            endsAt: r.startsAt + r.length,
            participants: r.kind === 'equipment' ? null : r.participants,
          }))
          .sort((a, b) => a.startsAt - b.startsAt);
        const inDay = (t: number) => t >= day.from && t < day.to;
        const groups = groupManifest(entries, day);
        const departed = groups.departures.flatMap((d) => d.entries);
        expect(departed.length).toBe(
          entries.filter((e) => e.kind === 'adventure' && inDay(e.startsAt)).length,
        );
        expect(groups.pickups).toEqual(entries.filter((e) => e.kind === 'equipment' && inDay(e.startsAt)));
        expect(groups.returns).toEqual(entries.filter((e) => e.kind === 'equipment' && inDay(e.endsAt)));
        for (const d of groups.departures) {
          expect(d.entries.every((e) => e.listingId === d.listingId && e.startsAt === d.startsAt)).toBe(true);
          expect(d.participants).toBe(d.entries.reduce((n, e) => n + (e.participants ?? 0), 0));
        }
      }),
    );
  });
});
