import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import { type Clock, systemClock } from '../../lib/clock.ts';
import { writeMailFile } from './mail-files.ts';

// Sending mail (decisions §14): over SMTP_URL, or, with no SMTP_URL (development), as .eml files under
// MAIL_DIR. The outbox worker decides when to send and retries; the mailer sends one message once.

/** A file sent with a message (a booking's .ics). */
export interface MailAttachment {
  filename: string;
  content: string;
  contentType: string;
}

/** One message to one address: a plain-text part and an HTML part of the same content, and any files. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  messageId: string;
  /** the .eml file's name under MAIL_DIR; null when the message went to the SMTP server */
  file: string | null;
}

export interface Mailer {
  /** Sends the message; rejects with the transport's error (an SMTP reply code in `responseCode`). */
  send(message: MailMessage): Promise<SentMail>;
  close(): void;
}

/**
 * The longest one send may take, connecting included: the outbox worker's claim on a mail delivery must
 * outlast it, so that no second process sends the same attempt while this one still may.
 */
export const MAIL_SEND_TIMEOUT_MS = 10_000;

export interface MailerOptions {
  /** smtp:// or smtps:// URL (config SMTP_URL); null writes files into `mailDir` instead */
  smtpUrl: string | null;
  /** the From of every message (config MAIL_FROM) */
  from: string;
  mailDir: string;
  /** the message's Date header and the file's time */
  clock?: Clock;
  /** the longest one SMTP send may take (default MAIL_SEND_TIMEOUT_MS) */
  sendTimeoutMs?: number;
}

/**
 * What nodemailer composes one message from: the message, its From and Date, and its Message-ID and
 * multipart boundaries made here from one randomUUID (@ the From's domain, as nodemailer makes them).
 * Left to itself, nodemailer draws fresh random bytes for the Message-ID's five pieces and for every part's
 * boundary, a call into OpenSSL each; randomUUID takes them from a cached pool.
 */
function composing(from: string) {
  const [sender] = addressparser(from, { flatten: true });
  const domain = sender?.address.split('@').pop() || 'localhost';
  return (message: MailMessage, date: Date) => {
    const unique = randomUUID();
    return { ...message, from, date, messageId: `<${unique}@${domain}>`, baseBoundary: unique };
  };
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl === null ? fileMailer(options) : smtpMailer(options.smtpUrl, options);
}

function smtpMailer(
  url: string,
  { from, clock = systemClock, sendTimeoutMs = MAIL_SEND_TIMEOUT_MS }: MailerOptions,
): Mailer {
  // nodemailer's own waits run to minutes; each phase gets the whole send's bound instead, and the send
  // as a whole is cut off by its signal
  const compose = composing(from);
  const transport = createTransport({
    url,
    connectionTimeout: sendTimeoutMs,
    greetingTimeout: sendTimeoutMs,
    socketTimeout: sendTimeoutMs,
  });
  return {
    async send(message) {
      const info = await transport.sendMail({
        ...compose(message, clock.now()),
        signal: AbortSignal.timeout(sendTimeoutMs),
      });
      return { messageId: info.messageId, file: null };
    },
    close: () => transport.close(),
  };
}

function fileMailer({ from, mailDir, clock = systemClock }: MailerOptions): Mailer {
  const compose = composing(from);
  return {
    async send(message) {
      const date = clock.now();
      // composed by nodemailer's own composer, as its transports compose a message, without a transport's
      // plugins, logging and envelope: nothing is sent, the bytes go to a file
      const mime = new MailComposer(compose(message, date)).compile();
      const messageId = mime.messageId();
      const file = await writeMailFile(mailDir, await mime.build(), date, messageId);
      return { messageId, file };
    },
    close: () => {},
  };
}
