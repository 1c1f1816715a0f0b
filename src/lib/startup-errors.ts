// Failures of starting up (listening, opening the database) as one line naming the cause (decisions §18),
// shared by the server and the command line: an operator reads the cause, not a stack trace.

/** A failure whose message is already the one line to show. */
export class StartupError extends Error {}

interface SystemError extends Error {
  code?: string;
  syscall?: string;
  hostname?: string;
  address?: string;
  port?: number;
  /** PostgreSQL's own errors (pg's DatabaseError) carry a severity */
  severity?: string;
}

export interface StartupContext {
  host: string;
  port: number;
  databaseUrl: string;
}

/** Where a PostgreSQL URL points, without its password. */
function postgresTarget(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0].trim();
}

/** The cause of a start-up failure in one line (no prefix); the error's own first line when unknown. */
export function describeStartupError(error: unknown, context: StartupContext): string {
  if (!(error instanceof Error)) return firstLine(String(error));
  if (error instanceof StartupError) return error.message;
  const e = error as SystemError;
  const where = `port ${context.port} on ${context.host}`;
  const postgres = /^postgres(ql)?:/.test(context.databaseUrl);
  switch (e.code) {
    case 'EADDRINUSE':
      return `${where} is already in use`;
    case 'EACCES':
      if (e.syscall === 'listen') return `${where} needs privileges this process does not have`;
      break;
    case 'EADDRNOTAVAIL':
      return `HOST ${context.host} is not an address of this machine`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_FAIL':
      if (e.hostname === context.host) return `HOST ${context.host} does not resolve to an address`;
      if (postgres) return `${postgresTarget(context.databaseUrl)}: host not found (DATABASE_URL)`;
      break;
    case 'ECONNREFUSED':
      if (postgres) return `${postgresTarget(context.databaseUrl)} refused the connection (DATABASE_URL)`;
      break;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      if (postgres) return `${postgresTarget(context.databaseUrl)} is unreachable (DATABASE_URL)`;
      break;
    case 'SQLITE_CANTOPEN':
      return `cannot open the SQLite database (DATABASE_URL=${context.databaseUrl}): ${e.message}`;
    case 'SQLITE_NOTADB':
      return `DATABASE_URL=${context.databaseUrl} is not a SQLite database`;
  }
  if (postgres && (e.severity || /timeout|terminated/i.test(e.message)))
    return `${postgresTarget(context.databaseUrl)}: ${firstLine(e.message)} (DATABASE_URL)`;
  return firstLine(e.message) || e.name;
}
