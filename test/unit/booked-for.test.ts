import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bookedFor, bookedForLine } from '../../src/lib/booked-for.ts';

// Who a booking is for, as mails, the manifest, the calendar feed and the vendor's pages name them
// (decisions §24): the customer's account, or a channel booking's contact and channel.

const customer = (first_name: string, last_name: string, email = 'rita@example.com') => ({
  first_name,
  last_name,
  email,
  phone_number: '+351 912 345 678',
});
const harbour = { id: 4, name: 'Harbour Hotel' };

describe('who a booking is for', () => {
  it('names a customer by name, else by email, never by a channel', () => {
    expect(bookedFor({ customer: customer('Rita', 'Sousa') })).toEqual({
      name: 'Rita Sousa',
      email: 'rita@example.com',
      phone: '+351 912 345 678',
      via: null,
    });
    expect(bookedFor({ customer: customer(' ', '') }).name).toBe('rita@example.com');
    expect(bookedForLine({ customer: customer('Rita', 'Sousa') })).toBe('Rita Sousa');
  });

  it('names a channel booking by its contact, else by its channel, and says which channel', () => {
    const contact = { full_name: 'Ana Costa', email: 'ana@example.com', phone_number: null };
    expect(bookedFor({ customer: null, contact, channel: harbour })).toEqual({
      name: 'Ana Costa',
      email: 'ana@example.com',
      phone: '',
      via: 'Harbour Hotel',
    });
    expect(bookedForLine({ customer: null, contact, channel: harbour })).toBe(
      'Ana Costa (via Harbour Hotel)',
    );
    // a hold the reseller has not confirmed yet has no contact: the channel names it, once
    const hold = { customer: null, contact: null, channel: harbour };
    expect(bookedFor(hold).name).toBe('Harbour Hotel');
    expect(bookedForLine(hold)).toBe('Harbour Hotel');
  });

  it('always gives a name a person can read, and a channel only for a channel booking', () => {
    fc.assert(
      fc.property(
        fc.option(fc.tuple(fc.string(), fc.string(), fc.emailAddress())),
        fc.option(fc.string()),
        fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
        (account, contactName, channelName) => {
          const booking = account
            ? { customer: customer(...account) }
            : {
                customer: null,
                contact: { full_name: contactName, email: null, phone_number: null },
                channel: { id: 1, name: channelName },
              };
          const { name, via } = bookedFor(booking);
          expect(name.trim()).not.toBe('');
          expect(via).toBe(account ? null : channelName);
          if (account) expect(name).toBe(`${account[0]} ${account[1]}`.trim() || account[2]);
          else expect(name).toBe(contactName?.trim() || channelName);
        },
      ),
    );
  });
});
