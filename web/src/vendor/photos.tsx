// A listing's photos (decisions §16): upload with alt text, reorder, change the alt text, delete. The
// server re-encodes every upload; the page shows the thumbnails it made.
import { useId, useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { ErrorMessage, Field, fieldErrors } from '../ui.tsx';
import type { Kind } from './data.ts';

type Photo = Schemas['ListingPhoto'];

/** The API's limit per listing (decisions §16). */
const MAX_PHOTOS = 20;

/** The photo calls of one listing, whichever its kind (the API has a path per kind). */
function photoApi(kind: Kind, id: number) {
  // openapi-fetch sends a FormData body as multipart/form-data with its boundary; the schema types the
  // body as the form's fields
  type Upload = { file: string; alt?: string };
  const at = (photoId: number) => ({ params: { path: { id, photo_id: photoId } } });
  return kind === 'equipment'
    ? {
        upload: (form: FormData) =>
          call(() =>
            api.POST('/api/v1/equipment/vendor/items/{id}/photos/', {
              params: { path: { id } },
              body: form as unknown as Upload,
            }),
          ),
        update: (photoId: number, body: { alt?: string; position?: number }) =>
          call(() =>
            api.PATCH('/api/v1/equipment/vendor/items/{id}/photos/{photo_id}/', { ...at(photoId), body }),
          ),
        remove: (photoId: number) =>
          call(() => api.DELETE('/api/v1/equipment/vendor/items/{id}/photos/{photo_id}/', at(photoId))),
      }
    : {
        upload: (form: FormData) =>
          call(() =>
            api.POST('/api/v1/adventrues/vendor/offerings/{id}/photos/', {
              params: { path: { id } },
              body: form as unknown as Upload,
            }),
          ),
        update: (photoId: number, body: { alt?: string; position?: number }) =>
          call(() =>
            api.PATCH('/api/v1/adventrues/vendor/offerings/{id}/photos/{photo_id}/', {
              ...at(photoId),
              body,
            }),
          ),
        remove: (photoId: number) =>
          call(() => api.DELETE('/api/v1/adventrues/vendor/offerings/{id}/photos/{photo_id}/', at(photoId))),
      };
}

type PhotoCalls = ReturnType<typeof photoApi>;

function PhotoItem({
  photo,
  number,
  count,
  calls,
  onChange,
}: {
  photo: Photo;
  number: number;
  count: number;
  calls: PhotoCalls;
  onChange: () => Promise<void>;
}) {
  const [alt, setAlt] = useState(photo.alt);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      await onChange();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const name = `photo ${number}`;
  return (
    <li class="card photo">
      <img src={photo.thumbnail_url} alt={photo.alt} width={200} loading="lazy" />
      <ErrorMessage error={error} />
      <Field
        label={`Alt text of ${name}`}
        value={alt}
        onValue={setAlt}
        error={fieldErrors(error).alt}
        maxLength={300}
      />
      <div class="row">
        <button
          type="button"
          class="button"
          disabled={busy}
          onClick={() => run(() => calls.update(photo.id, { alt }))}
        >
          Save alt text
        </button>
        <button
          type="button"
          class="button"
          disabled={busy || number === 1}
          aria-label={`Move ${name} up`}
          onClick={() => run(() => calls.update(photo.id, { position: photo.position - 1 }))}
        >
          Up
        </button>
        <button
          type="button"
          class="button"
          disabled={busy || number === count}
          aria-label={`Move ${name} down`}
          onClick={() => run(() => calls.update(photo.id, { position: photo.position + 1 }))}
        >
          Down
        </button>
        <button
          type="button"
          class="button danger"
          disabled={busy}
          aria-label={`Delete ${name}`}
          onClick={() => run(() => calls.remove(photo.id))}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

function UploadForm({ calls, onUploaded }: { calls: PhotoCalls; onUploaded: () => Promise<void> }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // a new input after each upload: a file input's value cannot be set back to empty from a prop
  const [round, setRound] = useState(0);
  const errors = fieldErrors(error);
  const submit = async (event: Event) => {
    event.preventDefault();
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      const form = new FormData();
      form.append('alt', alt);
      form.append('file', file);
      await calls.upload(form);
      setFile(null);
      setAlt('');
      setRound((n) => n + 1);
      await onUploaded();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="stack narrow" onSubmit={submit}>
      <h3>Add a photo</h3>
      <ErrorMessage error={error} />
      <div class="field">
        <label for={inputId}>Photo file</label>
        <input
          key={round}
          id={inputId}
          type="file"
          accept="image/jpeg,image/png,image/webp"
          required
          aria-invalid={errors.file?.length ? true : undefined}
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <small class="hint">JPEG, PNG or WebP, at most 10 MiB.</small>
        {errors.file?.length ? <small class="field-error">{errors.file.join(' ')}</small> : null}
      </div>
      <Field
        label="Alt text"
        value={alt}
        onValue={setAlt}
        error={errors.alt}
        hint="What the photo shows, for people who cannot see it."
        maxLength={300}
      />
      <button type="submit" class="button primary" disabled={busy || !file}>
        Upload photo
      </button>
    </form>
  );
}

export function Photos({
  kind,
  listingId,
  photos,
  onChange,
}: {
  kind: Kind;
  listingId: number;
  photos: Photo[];
  onChange: () => Promise<void>;
}) {
  const headingId = useId();
  const calls = photoApi(kind, listingId);
  return (
    <section aria-labelledby={headingId} class="stack">
      <h2 id={headingId}>Photos</h2>
      {photos.length === 0 ? (
        <p>No photos yet. The first photo is the one customers see on the listing's card.</p>
      ) : (
        <ol class="photos">
          {photos.map((photo, i) => (
            <PhotoItem
              key={`${photo.id}-${photo.position}-${photo.alt}`}
              photo={photo}
              number={i + 1}
              count={photos.length}
              calls={calls}
              onChange={onChange}
            />
          ))}
        </ol>
      )}
      {photos.length < MAX_PHOTOS ? (
        <UploadForm calls={calls} onUploaded={onChange} />
      ) : (
        <p>A listing has at most {MAX_PHOTOS} photos: delete one to add another.</p>
      )}
    </section>
  );
}
