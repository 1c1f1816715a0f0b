import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordListingClick } from '../../../src/modules/marketing/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/build-test-app.ts';
import { registerCustomer, registerVendor } from '../../helpers/factories.ts';
import {
  insertBooking,
  insertListing,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';

// A booking carries its click's traffic type and campaign, copied and kept in step by triggers
// (migration 2026112209), whoever writes the rows.

let t: TestApp;
let mine: TestListing;
let theirs: TestListing;
let customerId: number;

beforeAll(async () => {
  t = await buildTestApp();
  const [a, b] = [await registerVendor(t.app), await registerVendor(t.app)];
  mine = await insertListing(t.db, await vendorProfileId(t.db, a.id), 'equipment');
  theirs = await insertListing(t.db, await vendorProfileId(t.db, b.id), 'equipment');
  customerId = (await registerCustomer(t.app)).id;
});
afterAll(() => t.close());

const attributionOf = (bookingId: number) =>
  t.db
    .selectFrom('bookings')
    .select(['click_traffic_type', 'click_utm_source', 'click_utm_medium', 'click_utm_campaign'])
    .where('id', '=', bookingId)
    .executeTakeFirstOrThrow();

const click = (listing: TestListing, params: Record<string, string>) =>
  recordListingClick(t.db, t.clock, { listing, source: 'track', params });

describe('booking attribution copies', () => {
  it('copy the click of the booking’s own vendor, and nothing for another vendor’s click or none', async () => {
    const campaign = await click(mine, { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'spring' });
    const organic = await click(mine, {});
    const foreign = await click(theirs, { utm_campaign: 'theirs' });
    const at = t.clock.now().getTime();
    const withCampaign = await insertBooking(t.db, {
      listing: mine,
      customerId,
      createdAt: at,
      clickId: campaign.marketing_click_id,
    });
    const withOrganic = await insertBooking(t.db, {
      listing: mine,
      customerId,
      createdAt: at,
      clickId: organic.marketing_click_id,
    });
    const withForeign = await insertBooking(t.db, {
      listing: mine,
      customerId,
      createdAt: at,
      clickId: foreign.marketing_click_id,
    });
    const without = await insertBooking(t.db, { listing: mine, customerId, createdAt: at });
    expect(await attributionOf(withCampaign)).toEqual({
      click_traffic_type: 'marketing',
      click_utm_source: 'google',
      click_utm_medium: 'cpc',
      click_utm_campaign: 'spring',
    });
    expect(await attributionOf(withOrganic)).toEqual({
      click_traffic_type: 'organic',
      click_utm_source: '',
      click_utm_medium: '',
      click_utm_campaign: '',
    });
    const none = {
      click_traffic_type: null,
      click_utm_source: '',
      click_utm_medium: '',
      click_utm_campaign: '',
    };
    expect(await attributionOf(withForeign)).toEqual(none);
    expect(await attributionOf(without)).toEqual(none);
  });

  it('follow a click that is changed or removed', async () => {
    const source = await click(mine, { utm_source: 'mail', utm_campaign: 'summer' });
    const id = await insertBooking(t.db, {
      listing: mine,
      customerId,
      createdAt: t.clock.now().getTime(),
      clickId: source.marketing_click_id,
    });
    await t.db
      .updateTable('listing_clicks')
      .set({ utm_campaign: 'autumn' })
      .where('id', '=', source.marketing_click_id)
      .execute();
    expect((await attributionOf(id)).click_utm_campaign).toBe('autumn');
    await t.db.deleteFrom('listing_clicks').where('id', '=', source.marketing_click_id).execute();
    expect(await attributionOf(id)).toEqual({
      click_traffic_type: null,
      click_utm_source: '',
      click_utm_medium: '',
      click_utm_campaign: '',
    });
  });
});
