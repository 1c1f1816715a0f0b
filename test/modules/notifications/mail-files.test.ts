import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/lib/clock.ts';
import { createEmailChannel, createMailer } from '../../../src/modules/notifications/index.ts';
import { runNode } from '../../helpers/run-node.ts';
import {
  bookingEvent,
  CUSTOMER_EMAIL,
  LOCAL,
  mailAttempt,
  PUBLIC_URL,
  passwordResetEvent,
  VENDOR_EMAIL,
} from './mail-fixtures.ts';

// Development mail (no SMTP_URL): .eml files under MAIL_DIR, and the command line that lists and shows them.

const root = mkdtempSync(join(tmpdir(), 'mail-files-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FROM = 'Waterbook <no-reply@localhost>';
const FILE_NAME = /^2026-06-30T\d{6}\.\d{3}Z-[0-9a-f]{12}\.eml$/;

/** A mailer writing into a new directory that does not exist yet, at the clock's time. */
function fileChannel(name: string) {
  const mailDir = join(root, name, 'mail');
  const clock = new ManualClock('2026-06-30T09:30:00.000Z');
  const mailer = createMailer({ smtpUrl: null, from: FROM, mailDir, clock });
  return { mailDir, clock, mailer, channel: createEmailChannel({ mailer, publicUrl: PUBLIC_URL }) };
}

/** Runs `npm run cli -- mail ...` as the project runs it: a Node process on src/cli.ts. */
function cli(mailDir: string, ...args: string[]) {
  return runNode(['src/cli.ts', 'mail', ...args], { MAIL_DIR: mailDir, DATABASE_URL: 'sqlite::memory:' });
}

describe('mail without SMTP_URL', () => {
  it('writes each message as an .eml file, named by its time, that parses to the same facts', async () => {
    const { mailDir, channel, mailer } = fileChannel('facts');
    const outcome = await channel.send(
      mailAttempt(bookingEvent('booking.approved'), 'customer', CUSTOMER_EMAIL),
    );
    expect(outcome).toEqual({ delivered: true, statusCode: null, error: null });
    const files = readdirSync(mailDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^2026-06-30T093000\.000Z-[0-9a-f]{12}\.eml$/);

    const mail = await simpleParser(readFileSync(join(mailDir, files[0])));
    expect(mail.to).toMatchObject({ value: [{ address: CUSTOMER_EMAIL }] });
    expect(mail.from).toMatchObject({ value: [{ address: 'no-reply@localhost', name: 'Waterbook' }] });
    expect(mail.date?.toISOString()).toBe('2026-06-30T09:30:00.000Z');
    expect(mail.subject).toBe('Booking approved, please pay: Double kayak');
    expect(mail.text).toContain(`From:     ${LOCAL.startsAt}`);
    expect(mail.text).toContain(`Pay by:   ${LOCAL.expiresAt}`);
    expect(mail.text).toContain(`${PUBLIC_URL}/bookings/41`);
    expect(mail.html).toContain(`<a href="${PUBLIC_URL}/bookings/41">View the booking</a>`);
    mailer.close();
  });

  it('gives messages of the same millisecond different names, and leaves no partial file', async () => {
    const { mailDir, channel, mailer } = fileChannel('same-time');
    const event = bookingEvent('booking.confirmed');
    await Promise.all([
      channel.send(mailAttempt(event, 'customer', CUSTOMER_EMAIL)),
      channel.send(mailAttempt(event, 'vendor', VENDOR_EMAIL)),
      channel.send(mailAttempt(event, 'customer', CUSTOMER_EMAIL)),
    ]);
    const files = readdirSync(mailDir);
    expect(files).toHaveLength(3);
    expect(new Set(files).size).toBe(3);
    for (const file of files) expect(file).toMatch(FILE_NAME);
    // each has a Message-ID of its own at the From's domain, and boundaries no other message uses
    const raws = files.map((file) => readFileSync(join(mailDir, file), 'utf8'));
    const ids = raws.map((raw) => /^Message-ID: <([^>]+)>$/m.exec(raw)?.[1]);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}@localhost$/);
    expect(new Set(ids).size).toBe(3);
    const boundaries = raws.map((raw) => /boundary="([^"]+)"/.exec(raw)?.[1]);
    expect(new Set(boundaries).size).toBe(3);
    for (const [i, raw] of raws.entries()) {
      expect(boundaries[i]).toContain(ids[i]?.split('@')[0]);
      const parsed = await simpleParser(raw);
      expect(parsed.text).toContain('Double kayak');
      expect(parsed.html).toContain('Double kayak');
    }
    mailer.close();
  });

  it('reports a directory it cannot write as not delivered', async () => {
    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'a file where the mail directory should be');
    const mailer = createMailer({ smtpUrl: null, from: FROM, mailDir: join(blocked, 'mail') });
    const outcome = await createEmailChannel({ mailer, publicUrl: PUBLIC_URL }).send(
      mailAttempt(bookingEvent('booking.approved'), 'customer', CUSTOMER_EMAIL),
    );
    expect(outcome).toMatchObject({ delivered: false, statusCode: null });
    expect(outcome.error).toMatch(/ENOTDIR/);
    mailer.close();
  });

  it('lists the messages newest first and shows one by number or by file name (npm run cli -- mail)', async () => {
    const { mailDir, channel, clock, mailer } = fileChannel('cli');
    expect(await cli(mailDir, 'list')).toMatchObject({ code: 0, stdout: `no mail in ${mailDir}\n` });

    await channel.send(mailAttempt(bookingEvent('booking.requested'), 'vendor', VENDOR_EMAIL));
    clock.advance(60_000);
    await channel.send(
      mailAttempt(passwordResetEvent(CUSTOMER_EMAIL), 'account', CUSTOMER_EMAIL, 'reset-token-1'),
    );
    mailer.close();
    const [newest, oldest] = readdirSync(mailDir).sort().reverse();

    const list = await cli(mailDir, 'list');
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')).toEqual([
      `  1  2026-06-30T09:31:00.000Z  ${CUSTOMER_EMAIL}  Reset your Waterbook password  ${newest}`,
      `  2  2026-06-30T09:30:00.000Z  ${VENDOR_EMAIL}  New booking request: Double kayak  ${oldest}`,
      '',
    ]);

    const byNumber = await cli(mailDir, 'show', '2');
    expect(byNumber.code).toBe(0);
    const [headers, text] = splitOnce(byNumber.stdout, '\n\n');
    expect(headers.split('\n')).toEqual([
      `File: ${oldest}`,
      'Date: 2026-06-30T09:30:00.000Z',
      'From: "Waterbook" <no-reply@localhost>',
      `To: ${VENDOR_EMAIL}`,
      'Subject: New booking request: Double kayak',
      expect.stringMatching(/^Message-ID: <.+>$/),
    ]);
    expect(text).toContain('Ana Silva asks to book Double kayak.');
    expect(text).toContain(`Answer by: ${LOCAL.expiresAt}`);
    expect(text).toContain(`${PUBLIC_URL}/vendor/bookings/41`);

    const byName = await cli(mailDir, 'show', newest);
    expect(byName.code).toBe(0);
    expect(byName.stdout).toContain('Subject: Reset your Waterbook password');
    expect(byName.stdout).toContain(`${PUBLIC_URL}/reset-password?token=reset-token-1`);
    expect(byName.stdout).toContain('valid for 1 hour');
  });

  it('refuses an unknown message, a path outside MAIL_DIR and an unknown subcommand', async () => {
    const { mailDir, channel, mailer } = fileChannel('cli-errors');
    await channel.send(mailAttempt(bookingEvent('booking.expired'), 'customer', CUSTOMER_EMAIL));
    mailer.close();
    const missing = await cli(mailDir, 'show', '2');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`mail show: no message 2 in ${mailDir}\n`);
    expect((await cli(mailDir, 'show', '../../../etc/passwd')).code).toBe(1);
    for (const args of [['send'], ['show']]) {
      const usage = await cli(mailDir, ...args);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('mail list');
    }
  });
});

function splitOnce(s: string, separator: string): [string, string] {
  const at = s.indexOf(separator);
  return [s.slice(0, at), s.slice(at + separator.length)];
}
