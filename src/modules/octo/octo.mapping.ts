import type { VendorProfile } from '../accounts/index.ts';

// How the platform's objects read as OCTO's (decisions §24), as pure functions: the service feeds them
// rows, the tests feed them random ones. Nothing here reads the database or the clock.

/** A vendor as the supplier mapping needs it: its id and its profile's fields. */
export type SupplierSource = { id: number } & Pick<
  VendorProfile,
  | 'business_name'
  | 'description'
  | 'contact_email'
  | 'contact_phone'
  | 'address_line1'
  | 'address_line2'
  | 'city'
  | 'state'
  | 'postal_code'
  | 'country'
>;

const orNull = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** GET supplier: the channel's vendor. `endpoint` is the OCTO API's base URL. */
export function toOctoSupplier(vendor: SupplierSource, endpoint: string) {
  const address = [
    vendor.address_line1,
    vendor.address_line2,
    vendor.city,
    vendor.state,
    vendor.postal_code,
    vendor.country,
  ]
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
  return {
    id: String(vendor.id),
    name: vendor.business_name,
    endpoint,
    contact: {
      website: null,
      email: orNull(vendor.contact_email),
      telephone: orNull(vendor.contact_phone),
      address: orNull(address),
    },
    shortDescription: orNull(vendor.description),
  };
}
