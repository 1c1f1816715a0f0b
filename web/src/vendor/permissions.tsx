// What the signed-in member's team role may do (decisions §25), as the API says: the dashboard loads the
// operations the role may call (GET /api/v1/accounts/team/permissions/, read from the server's one
// permission table) and shows only the sections and buttons built on them. The browser keeps no table of
// its own; the API refuses anything else anyway.
import { type ComponentChildren, createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { paths } from '../generated/api';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** An API operation as the permissions answer names it: `POST /api/v1/booking/bookings/{id}/approve/`. */
export type Operation = `${Method} ${keyof paths & string}`;

// null outside a member's dashboard (a visitor, a customer told the dashboard is for vendors): the frame
// then lists every section, as before anyone logs in
const PermissionsContext = createContext<ReadonlySet<string> | null>(null);

export function PermissionsProvider({
  operations,
  children,
}: {
  operations: readonly string[];
  children: ComponentChildren;
}) {
  return <PermissionsContext.Provider value={new Set(operations)}>{children}</PermissionsContext.Provider>;
}

/** Whether the member may call `operation`; an operation the table does not govern (no role needed) may. */
export function useMay(): (operation: Operation | undefined) => boolean {
  const allowed = useContext(PermissionsContext);
  return (operation) => operation === undefined || allowed === null || allowed.has(operation);
}
