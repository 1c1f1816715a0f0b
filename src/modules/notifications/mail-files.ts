import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

// Development mail (no SMTP_URL): each message is one .eml file under MAIL_DIR. A file's name starts with
// the time it was written, so names sort by time, and ends with a hash of the message id, so two messages
// of one millisecond never share a name.

const EML = '.eml';

/** "2026-07-01T100000.000Z-<12 hex digits>.eml": sortable by time, unique by message id. */
export function mailFileName(writtenAt: Date, messageId: string): string {
  const hash = createHash('sha256').update(messageId).digest('hex').slice(0, 12);
  return `${writtenAt.toISOString().replaceAll(':', '')}-${hash}${EML}`;
}

/**
 * Writes a raw message under `dir` (created when missing) and returns the file's name. The message is
 * written under a temporary name and then renamed, so a reader never sees half a message.
 */
export async function writeMailFile(
  dir: string,
  raw: Buffer,
  writtenAt: Date,
  messageId: string,
): Promise<string> {
  const name = mailFileName(writtenAt, messageId);
  const partial = join(dir, `.${name}.partial`);
  // the directory is made when a write finds it missing, not checked before every message: at a busy
  // server's rate of mail the check cost more than the write
  await writeFile(partial, raw).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    await mkdir(dir, { recursive: true });
    await writeFile(partial, raw);
  });
  await rename(partial, join(dir, name));
  return name;
}

/** A written message as `mail list` and `mail show` print it. */
export interface StoredMail {
  file: string;
  date: Date | null;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  text: string;
}

/** The .eml files under `dir`, newest first (none when the directory does not exist yet). */
export async function mailFileNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names
    .filter((name) => name.endsWith(EML) && !name.startsWith('.'))
    .sort()
    .reverse();
}

/** Every message under `dir`, newest first. */
export async function listMail(dir: string): Promise<StoredMail[]> {
  const names = await mailFileNames(dir);
  return Promise.all(names.map((name) => readMail(dir, name)));
}

/**
 * One message under `dir`, named by its file name or by its position in `mailFileNames` (1 = newest);
 * undefined when there is no such message. A name never leaves `dir`.
 */
export async function findMail(dir: string, nameOrIndex: string): Promise<StoredMail | undefined> {
  const names = await mailFileNames(dir);
  const name = /^\d+$/.test(nameOrIndex)
    ? names[Number(nameOrIndex) - 1]
    : names.find((n) => n === basename(nameOrIndex));
  return name === undefined ? undefined : readMail(dir, name);
}

async function readMail(dir: string, name: string): Promise<StoredMail> {
  // mailparser is loaded here, not at the top: only the command line reads mail files, and the server
  // (which imports this module's neighbours) should not carry the parser
  const { simpleParser } = await import('mailparser');
  const parsed = await simpleParser(await readFile(join(dir, name)));
  const addresses = (value: typeof parsed.to) =>
    (Array.isArray(value) ? value : value ? [value] : []).map((a) => a.text).join(', ');
  return {
    file: name,
    date: parsed.date ?? null,
    from: addresses(parsed.from),
    to: addresses(parsed.to),
    subject: parsed.subject ?? '',
    messageId: parsed.messageId ?? '',
    text: parsed.text ?? '',
  };
}
