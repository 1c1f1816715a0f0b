import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CLAIM_TIMEOUT_MS } from '../../src/http/idempotency.ts';
import { multipartBody, TINY_PNG } from '../helpers/multipart.ts';
import { databaseOfFile, makeFixture, startServer } from './server-process.ts';

// An Idempotency-Key whose first request died with its server process (kill -9), retried on another
// process of the same database: the retry runs at once, as the claim's process is proved gone
// (src/http/claim-owner.ts), while the claim of a live process still answers 409. Real server processes,
// on a SQLite file or (TEST_DATABASE_URL) a PostgreSQL database.

const database = databaseOfFile();

/**
 * Starts a photo upload and stops sending half-way through its body: the request has claimed its key and
 * waits inside its handler, which reads the upload, for the rest.
 */
function stalledUpload(url: string, headers: Record<string, string>, body: Buffer) {
  const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'content-length': body.length } });
  req.on('error', () => {});
  req.write(body.subarray(0, Math.floor(body.length / 2)));
  return req;
}

describe('a key whose request died with its process', () => {
  it('is run anew at once by another process, and not while its process lives', async () => {
    const db = database();
    const first = await startServer(db.url);
    const second = await startServer(db.url);
    const f = await makeFixture(first.url);
    const handle = db.open();
    try {
      const path = `/api/v1/equipment/vendor/items/${f.listingId}/photos/`;
      const upload = await multipartBody({ alt: 'Kayak' }, [{ data: TINY_PNG }]);
      const headers = {
        ...upload.headers,
        authorization: `Bearer ${f.vendorToken}`,
        'idempotency-key': 'upload-once',
      };
      const send = (base: string) =>
        fetch(`${base}${path}`, { method: 'POST', headers, body: new Uint8Array(upload.payload) });
      const claims = () =>
        handle.db.selectFrom('idempotency_keys').select(['response_status', 'claimed_by']).execute();

      stalledUpload(`${first.url}${path}`, headers, upload.payload);
      const started = Date.now();
      const deadline = started + 10_000;
      while ((await claims()).length === 0 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 20));
      const [claim] = await claims();
      expect(claim.response_status).toBeNull();
      expect(claim.claimed_by).toMatch(new RegExp(`/${first.child.pid}/\\d+$`));

      // the first process still runs its request: the other process refuses the key
      const meanwhile = await send(second.url);
      expect(meanwhile.status).toBe(409);
      expect(await meanwhile.json()).toEqual({
        detail: 'A request with this Idempotency-Key is still being processed; retry later.',
        code: 'idempotency_key_in_use',
      });

      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      // well within CLAIM_TIMEOUT_MS of the claim: the retry runs because its process is gone
      const retried = await send(second.url);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBeNull();
      const photo = (await retried.json()) as { id: number; alt: string; position: number };
      expect(photo).toMatchObject({ alt: 'Kayak', position: 0 });
      const again = await send(second.url);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(((await again.json()) as { id: number }).id).toBe(photo.id);
      const photos = await handle.db.selectFrom('listing_photos').select('id').execute();
      expect(photos.map((p) => p.id)).toEqual([photo.id]);
      expect(Date.now() - started).toBeLessThan(CLAIM_TIMEOUT_MS);
    } finally {
      second.child.kill('SIGKILL');
      await handle.close();
    }
  }, 60_000);
});
