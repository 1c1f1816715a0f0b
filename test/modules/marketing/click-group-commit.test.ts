import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../../src/db/database.ts';
import { inTransaction } from '../../../src/db/transactions.ts';
import { type ClickValues, insertClick } from '../../../src/modules/marketing/clicks.repository.ts';
import { buildTestApp, type TestApp, usingPostgres } from '../../helpers/build-test-app.ts';
import { registerVendor } from '../../helpers/factories.ts';
import {
  clickRow,
  insertListing,
  type TestListing,
  vendorProfileId,
} from '../../helpers/marketing-factories.ts';

// Clicks (and booking requests) are group-committed on SQLite (src/db/group-commit.ts, `inTransaction` with `groupCommit`): many at once share
// a transaction, yet each request gets its own click, acknowledged only once stored, and a unit that fails
// leaves nothing behind and fails only itself.

let t: TestApp;
let kayak: TestListing;
let base: string;

beforeAll(async () => {
  t = await buildTestApp();
  const vendor = await registerVendor(t.app);
  kayak = await insertListing(t.db, await vendorProfileId(t.db, vendor.id), 'equipment', {
    publicId: 'grouped-kayak',
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => t.close());

const clickValues = (listingId: number, utmCampaign: string): ClickValues =>
  clickRow({ ...kayak, id: listingId }, t.clock.now().getTime(), { utm_campaign: utmCampaign });

describe('clicks written at once', () => {
  it('give 60 parallel detail views and tracks 60 distinct stored clicks, each as answered', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, async (_, n) => {
        const campaign = `group-${n}`;
        const res =
          n % 2 === 0
            ? await fetch(`${base}/api/v1/equipment/items/grouped-kayak/?utm_campaign=${campaign}`)
            : await fetch(`${base}/api/v1/marketing/track/click/`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({
                  listing_type: 'equipment',
                  public_id: 'grouped-kayak',
                  utm_campaign: campaign,
                }),
              });
        const body = (await res.json()) as { marketing_click_id: number };
        return { status: res.status, id: body.marketing_click_id, campaign };
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(30).fill(200), ...Array(30).fill(201)]);
    expect(new Set(answers.map((a) => a.id)).size).toBe(60);
    const stored = await t.db
      .selectFrom('listing_clicks')
      .select(['id', 'utm_campaign', 'source'])
      .where(
        'id',
        'in',
        answers.map((a) => a.id),
      )
      .execute();
    const campaignOf = new Map(stored.map((row) => [row.id, row.utm_campaign]));
    // every answered id is a stored click carrying that request's own campaign
    expect(answers.map((a) => campaignOf.get(a.id))).toEqual(answers.map((a) => a.campaign));
    expect(stored.filter((row) => row.source === 'detail_view')).toHaveLength(30);
  });

  it('fails only the write that breaks a constraint; its neighbours are stored', async () => {
    const results = await Promise.allSettled([
      insertClick(t.db, clickValues(kayak.id, 'neighbour-a')),
      insertClick(t.db, clickValues(999_999_999, 'no-such-listing')), // foreign key
      insertClick(t.db, clickValues(kayak.id, 'neighbour-b')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const stored = await t.db
      .selectFrom('listing_clicks')
      .select('utm_campaign')
      .where('id', 'in', ids)
      .orderBy('utm_campaign') // on PostgreSQL each has its own transaction: ids in any order
      .execute();
    expect(stored.map((row) => row.utm_campaign)).toEqual(['neighbour-a', 'neighbour-b']);
    const orphans = await t.db
      .selectFrom('listing_clicks')
      .select('id')
      .where('utm_campaign', '=', 'no-such-listing')
      .execute();
    expect(orphans).toEqual([]);
  });

  it('roll back only the unit that throws, also the rows it had already written', async () => {
    const results = await Promise.allSettled([
      insertClick(t.db, clickValues(kayak.id, 'before-the-throw')),
      inTransaction(
        t.db,
        async (trx) => {
          await trx
            .insertInto('listing_clicks')
            .values(clickValues(kayak.id, 'written-then-thrown'))
            .execute();
          throw new Error('changed its mind');
        },
        { groupCommit: true },
      ),
      insertClick(t.db, clickValues(kayak.id, 'after-the-throw')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toHaveProperty('message', 'changed its mind');
    const stored = await t.db
      .selectFrom('listing_clicks')
      .select('utm_campaign')
      .where('utm_campaign', 'in', ['before-the-throw', 'written-then-thrown', 'after-the-throw'])
      .orderBy('utm_campaign')
      .execute();
    expect(stored.map((row) => row.utm_campaign)).toEqual(['after-the-throw', 'before-the-throw']);
  });

  it('share one transaction on SQLite and are acknowledged only after it', async () => {
    const handles: Db[] = [];
    const double = (db: Db, n: number) =>
      inTransaction(
        db,
        async (trx) => {
          handles.push(trx);
          return n * 2;
        },
        { groupCommit: true },
      );
    expect(await Promise.all([1, 2, 3, 4].map((n) => double(t.db, n)))).toEqual([2, 4, 6, 8]);
    expect(await double(t.db, 5)).toBe(10);
    if (usingPostgres) {
      // a transaction of their own each
      expect(new Set(handles).size).toBe(5);
    } else {
      // the four that arrived together ran on one transaction's handle, the later one on another
      expect(new Set(handles.slice(0, 4)).size).toBe(1);
      expect(handles[0]).not.toBe(t.db);
      expect(handles[4]).not.toBe(handles[0]);
    }
    // a handle already inside a transaction runs its unit there, never in a group of its own
    const inside = await inTransaction(t.db, async (trx) => {
      const doubled = await double(trx, 6);
      expect(handles.at(-1)).not.toBe(t.db);
      return doubled;
    });
    expect(inside).toBe(12);
  });

  const storedCampaigns = (db: Db, campaigns: string[]) =>
    db
      .selectFrom('listing_clicks')
      .select('utm_campaign')
      .where('utm_campaign', 'in', campaigns)
      .orderBy('utm_campaign')
      .execute();

  it('run a statement in the group of a unit of work arriving with it, before that unit', async () => {
    const [inserted, seen] = await Promise.all([
      insertClick(t.db, clickValues(kayak.id, 'statement-before-unit')),
      inTransaction(t.db, (trx) => storedCampaigns(trx, ['statement-before-unit']), { groupCommit: true }),
    ]);
    expect(inserted).toBeGreaterThan(0);
    // SQLite: one transaction, the statement first. PostgreSQL: each commits on its own, in any order.
    if (!usingPostgres) expect(seen).toEqual([{ utm_campaign: 'statement-before-unit' }]);
    expect(await storedCampaigns(t.db, ['statement-before-unit'])).toHaveLength(1);
  });

  it('never write a statement into a transaction that is open on the connection', async () => {
    let written!: () => void;
    let rollBack!: () => void;
    const isWritten = new Promise<void>((resolve) => {
      written = resolve;
    });
    const rolledBack = new Promise<void>((resolve) => {
      rollBack = resolve;
    });
    const open = inTransaction(t.db, async (trx) => {
      await trx.insertInto('listing_clicks').values(clickValues(kayak.id, 'open-then-rolled-back')).execute();
      written();
      await rolledBack;
      throw new Error('rolled back');
    });
    await isWritten;
    const statements = Promise.all([
      insertClick(t.db, clickValues(kayak.id, 'during-open-a')),
      insertClick(t.db, clickValues(kayak.id, 'during-open-b')),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    rollBack();
    await expect(open).rejects.toThrow('rolled back');
    const ids = await statements;
    expect(new Set(ids).size).toBe(2);
    // the clicks made while the other transaction was open outlive its rollback
    expect(await storedCampaigns(t.db, ['during-open-a', 'during-open-b', 'open-then-rolled-back'])).toEqual([
      { utm_campaign: 'during-open-a' },
      { utm_campaign: 'during-open-b' },
    ]);
  });
});
