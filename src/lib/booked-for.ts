// Who a booking is for, as people read it (mails, the manifest's CSV, the vendor's pages in the web app):
// its customer's account; or, for a booking made through a channel (decisions §24), the contact the
// reseller sent, and the channel's name.

export interface BookedForSource {
  customer: { first_name: string; last_name: string; email: string; phone_number: string } | null;
  contact?: { full_name: string | null; email: string | null; phone_number: string | null } | null;
  channel?: { id: number; name: string } | null;
}

export interface BookedFor {
  /** the customer's or the contact's name; a hold with no contact yet is named by its channel */
  name: string;
  email: string;
  phone: string;
  /** the channel it came through, or null */
  via: string | null;
}

export function bookedFor(booking: BookedForSource): BookedFor {
  const { customer, contact, channel } = booking;
  if (customer)
    return {
      name: `${customer.first_name} ${customer.last_name}`.trim() || customer.email,
      email: customer.email,
      phone: customer.phone_number,
      via: null,
    };
  const via = channel?.name ?? null;
  return {
    name: contact?.full_name?.trim() || via || '',
    email: contact?.email ?? '',
    phone: contact?.phone_number ?? '',
    via,
  };
}

/** The name as one line of text: "Ana Costa (via Harbour Hotel)" for a channel's booking. */
export function bookedForLine(booking: BookedForSource): string {
  const { name, via } = bookedFor(booking);
  return via && via !== name ? `${name} (via ${via})` : name;
}
