import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tableProgress } from '../../src/tools/progress.ts';

function stream(isTTY: boolean) {
  const out = Object.assign(new PassThrough(), { isTTY, columns: 100 });
  let text = '';
  out.on('data', (chunk) => {
    text += chunk;
  });
  return { out, text: () => stripVTControlCharacters(text) };
}

describe('tableProgress', () => {
  it('draws nothing when the stream is not a terminal (the plain log lines are used)', async () => {
    expect(await tableProgress(stream(false).out)).toBeNull();
  });

  it('draws a bar per table on a terminal, with the lines logged above them', async () => {
    const terminal = stream(true);
    const bars = await tableProgress(terminal.out);
    expect(bars).not.toBeNull();
    bars?.update('listing_clicks', 500_000, 1_000_000);
    bars?.log('  accounts: 1,200 rows');
    bars?.update('listing_clicks', 1_000_000, 1_000_000);
    bars?.update('bookings', 10, 40);
    bars?.stop();
    const text = terminal.text();
    expect(text).toMatch(/listing_clicks +█+ 100% 1,000,000\/1,000,000/);
    expect(text).toMatch(/bookings +█+░+ 25% 10\/40/);
    expect(text).toContain('  accounts: 1,200 rows\n');
  });
});
