import { describe, expect, it } from 'vitest';
import { countLocalDays, localDays } from '../../src/lib/local-days.ts';

const days = (from: string, to: string, timeZone: string) =>
  localDays(Date.parse(from), Date.parse(to), timeZone).map((d) => ({
    date: d.date,
    from: new Date(d.from).toISOString(),
    to: new Date(d.to).toISOString(),
  }));

describe('localDays', () => {
  it('cuts a 23-hour day where midnight is skipped: it starts at 01:00 (Santiago, September)', () => {
    expect(days('2026-09-05T04:00:00Z', '2026-09-07T04:00:00Z', 'America/Santiago')).toEqual([
      { date: '2026-09-05', from: '2026-09-05T04:00:00.000Z', to: '2026-09-06T04:00:00.000Z' },
      { date: '2026-09-06', from: '2026-09-06T04:00:00.000Z', to: '2026-09-07T03:00:00.000Z' },
      { date: '2026-09-07', from: '2026-09-07T03:00:00.000Z', to: '2026-09-07T04:00:00.000Z' },
    ]);
  });

  it('keeps a 25-hour day whole (Los Angeles, November)', () => {
    expect(days('2026-11-01T07:00:00Z', '2026-11-02T08:00:00Z', 'America/Los_Angeles')).toEqual([
      { date: '2026-11-01', from: '2026-11-01T07:00:00.000Z', to: '2026-11-02T08:00:00.000Z' },
    ]);
  });

  it('cuts at a midnight offset by minutes (Kathmandu, UTC+05:45) and clips both ends to the range', () => {
    expect(days('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z', 'Asia/Kathmandu')).toEqual([
      { date: '2026-06-01', from: '2026-06-01T00:00:00.000Z', to: '2026-06-01T18:15:00.000Z' },
      { date: '2026-06-02', from: '2026-06-01T18:15:00.000Z', to: '2026-06-02T00:00:00.000Z' },
    ]);
  });

  it('counts the dates a range touches, its end excluded', () => {
    const count = (from: string, to: string, zone: string) =>
      countLocalDays(Date.parse(from), Date.parse(to), zone);
    expect(count('2026-06-01T00:00:00Z', '2026-06-01T00:00:00.001Z', 'UTC')).toBe(1);
    expect(count('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z', 'UTC')).toBe(1);
    expect(count('2026-06-01T00:00:00Z', '2026-06-02T00:00:00.001Z', 'UTC')).toBe(2);
    expect(count('2026-06-01T00:00:00Z', '2026-06-02T00:00:00Z', 'Asia/Kathmandu')).toBe(2);
    expect(count('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z', 'UTC')).toBe(366);
  });
});
