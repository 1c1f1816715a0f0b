// What the dashboard's pages share: loading API data into state, and the two listing kinds behind one
// interface (the API has a path per kind; the pages are written once).
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  /** loads again, e.g. after an action changed what the page shows */
  reload(): Promise<void>;
}

/**
 * Runs `load` when a dependency changes and keeps its answer (or its error) in state. Only the latest
 * load's answer is kept: an earlier one arriving late (a filter changed meanwhile) is dropped.
 */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    try {
      const value = await load();
      if (ticket !== latest.current) return;
      setData(value);
      setError(null);
    } catch (e) {
      if (ticket === latest.current) setError(e);
    }
  }, deps);
  useEffect(() => {
    reload();
  }, [reload]);
  return { data, error, reload };
}

/**
 * A number input's text as the API's integer. Text that is no integer is sent as it is, typed as the
 * number the body wants, so that the API refuses it with its message at the field.
 */
export const integer = (text: string) =>
  text.trim() !== '' && Number.isInteger(Number(text)) ? Number(text) : (text as unknown as number);

export type Kind = 'equipment' | 'adventure';
export type Equipment = Schemas['EquipmentItem'];
export type Adventure = Schemas['AdventureOffering'];
export type Listing = Equipment | Adventure;

export const KIND_NAMES: Record<Kind, string> = { equipment: 'Equipment', adventure: 'Adventure' };

export const isKind = (value: string | undefined): value is Kind =>
  value === 'equipment' || value === 'adventure';

/** The listing's customer page (its public URL, decisions §18). */
export const publicPath = (kind: Kind, publicId: string) =>
  `/${kind === 'equipment' ? 'equipment' : 'adventures'}/${encodeURIComponent(publicId)}`;

/** A vendor has at most a few hundred listings: the largest page the API gives holds them. */
const ALL = { page_size: 100 };

export const listingsApi = {
  list: {
    equipment: () => call(() => api.GET('/api/v1/equipment/vendor/items/', { params: { query: ALL } })),
    adventure: () => call(() => api.GET('/api/v1/adventrues/vendor/offerings/', { params: { query: ALL } })),
  },
  getEquipment: (id: number) =>
    call(() => api.GET('/api/v1/equipment/vendor/items/{id}/', { params: { path: { id } } })),
  getAdventure: (id: number) =>
    call(() => api.GET('/api/v1/adventrues/vendor/offerings/{id}/', { params: { path: { id } } })),
  archive: (kind: Kind, id: number) =>
    kind === 'equipment'
      ? call(() => api.DELETE('/api/v1/equipment/vendor/items/{id}/', { params: { path: { id } } }))
      : call(() => api.DELETE('/api/v1/adventrues/vendor/offerings/{id}/', { params: { path: { id } } })),
};

export const categories = () =>
  call(() => api.GET('/api/v1/categories/', { params: { query: ALL } })).then((page) => page.results);

/** The vendor's resources (decisions §22), for the forms that choose one. */
export const useVendorResources = () =>
  useLoad(
    () => call(() => api.GET('/api/v1/booking/vendor/resources/', { params: { query: { page_size: 100 } } })),
    [],
  );
