import pg from 'pg';
const client = new pg.Client('postgres://app:pw@127.0.0.1:5433/app'); await client.connect();
const text = `select "starts_at", "ends_at", "status" from "bookings" where "listing_id" = $1 and "ends_at" > $2 and "ends_at" < $3 + coalesce((select longest_ms from listing_booking_spans where listing_id = $4), 9007199254740991) and "starts_at" < $5 and status in ('requested', 'approved', 'confirmed')`;
const text2 = `select "id", "kind", "vendor_id", "public_id", "title", "price_cents", "capacity", "duration_minutes", "is_active", "archived_at" from "listings" where "id" = $1 and "kind" = $2 and "is_active" = $3 and "archived_at" is null`;
for (const named of [false, true, false, true]) {
  const n = 3000; const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    await client.query(named ? { name: 'a1', text, values: [i % 100, 1, 2, i % 100, 3] } : { text, values: [i % 100, 1, 2, i % 100, 3] });
    await client.query(named ? { name: 'a2', text: text2, values: [i % 100, 'equipment', 1] } : { text: text2, values: [i % 100, 'equipment', 1] });
  }
  console.log(named ? 'named' : 'unnamed', 'us per 2 statements', (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1));
}
await client.end();
