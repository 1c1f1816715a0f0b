// multipart/form-data request bodies (photo uploads), encoded by the platform's FormData as a browser
// sends them.

export interface FilePart {
  data: Buffer;
  /** the form field (default `file`) */
  field?: string;
  filename?: string;
  /** the declared content type (default image/png): the server must not trust it */
  type?: string;
}

/** Text fields first, then the files. */
export async function multipartBody(
  fields: Record<string, string>,
  files: FilePart[],
): Promise<{ payload: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const f of files)
    form.append(
      f.field ?? 'file',
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'image/png' }),
      f.filename ?? 'photo.png',
    );
  const encoded = new Response(form);
  return {
    payload: Buffer.from(await encoded.arrayBuffer()),
    headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
  };
}

/** A valid 1 × 1 PNG: the smallest photo an upload may carry. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
