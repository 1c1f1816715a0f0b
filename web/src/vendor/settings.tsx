// The vendor's profile and business settings (PATCH vendor-profile/me/, decisions §2, §10, §11), the
// snippet that puts the embeddable storefront on the vendor's own site, and the webhook endpoints (§14).
import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api.ts';
import { CopyButton } from '../components/copy-button.tsx';
import { useSession } from '../session.tsx';
import {
  ErrorMessage,
  Field,
  fieldErrors,
  Notice,
  onSubmitRun,
  Page,
  Select,
  TextArea,
  useAction,
} from '../ui.tsx';
import { integer } from './data.ts';
import { OpeningHoursForm } from './opening-hours.tsx';
import { WebhooksSection } from './webhooks.tsx';

type Profile = Schemas['VendorProfile'];

/**
 * The browser's lists of ISO 4217 codes and IANA zones hold current, canonical names only: the default
 * `UTC` and older aliases the API accepts (`Europe/Kiev`) are not in them, so the saved value is added
 * when missing, or the select would show another one.
 */
const withSaved = (values: string[], saved: string) => (values.includes(saved) ? values : [saved, ...values]);

const currencyOptions = (saved: string) =>
  withSaved(
    Intl.supportedValuesOf('currency').map((code) => code.toLowerCase()),
    saved,
  ).map((code) => [code, code.toUpperCase()] as const);

const timeZoneOptions = (saved: string) =>
  withSaved(Intl.supportedValuesOf('timeZone'), saved).map(
    (zone) => [zone, zone.replaceAll('_', ' ')] as const,
  );

/** Minutes as a person reads them: "1 day 2 hours", "90 minutes" → "1 hour 30 minutes". */
function duration(minutesText: string): string | undefined {
  const total = Number(minutesText);
  if (!Number.isInteger(total) || total < 1) return undefined;
  const parts: string[] = [];
  const units = [
    [1440, 'day'],
    [60, 'hour'],
    [1, 'minute'],
  ] as const;
  let rest = total;
  for (const [size, name] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n) parts.push(`${n} ${name}${n === 1 ? '' : 's'}`);
  }
  return parts.join(' ');
}

const TEXT_FIELDS = [
  ['business_name', 'Business name'],
  ['contact_email', 'Contact email'],
  ['contact_phone', 'Contact phone'],
  ['address_line1', 'Address line 1'],
  ['address_line2', 'Address line 2'],
  ['city', 'City'],
  ['state', 'State or region'],
  ['postal_code', 'Postal code'],
  ['country', 'Country'],
] as const;

type Draft = Record<
  | (typeof TEXT_FIELDS)[number][0]
  | 'description'
  | 'currency'
  | 'time_zone'
  | 'request_ttl_minutes'
  | 'payment_ttl_minutes'
  | 'waiver_text',
  string
>;

const draftOf = (p: Profile): Draft => ({
  business_name: p.business_name,
  contact_email: p.contact_email,
  contact_phone: p.contact_phone,
  address_line1: p.address_line1,
  address_line2: p.address_line2,
  city: p.city,
  state: p.state,
  postal_code: p.postal_code,
  country: p.country,
  description: p.description,
  currency: p.currency,
  time_zone: p.time_zone,
  request_ttl_minutes: String(p.request_ttl_minutes),
  payment_ttl_minutes: String(p.payment_ttl_minutes),
  waiver_text: p.waiver_text,
});

function ProfileForm({ profile }: { profile: Profile }) {
  const session = useSession();
  const [draft, setDraft] = useState(() => draftOf(profile));
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await call(() =>
      api.PATCH('/api/v1/accounts/vendor-profile/me/', {
        body: {
          ...draft,
          request_ttl_minutes: integer(draft.request_ttl_minutes),
          payment_ttl_minutes: integer(draft.payment_ttl_minutes),
        },
      }),
    );
    await session.reload();
    setSaved(true);
  });
  const errors = fieldErrors(save.error);
  const set = (key: keyof Draft) => (value: string) => {
    setSaved(false);
    setDraft((d) => ({ ...d, [key]: value }));
  };
  return (
    <form class="stack narrow" onSubmit={onSubmitRun(save.run)} noValidate>
      <ErrorMessage error={save.error} />
      <h2>Profile</h2>
      {TEXT_FIELDS.slice(0, 1).map(([key, label]) => (
        <Field key={key} label={label} required value={draft[key]} onValue={set(key)} error={errors[key]} />
      ))}
      <TextArea
        label="Description"
        value={draft.description}
        onValue={set('description')}
        error={errors.description}
      />
      {TEXT_FIELDS.slice(1).map(([key, label]) => (
        <Field
          key={key}
          label={label}
          type={key === 'contact_email' ? 'email' : key === 'contact_phone' ? 'tel' : 'text'}
          value={draft[key]}
          onValue={set(key)}
          error={errors[key]}
        />
      ))}
      <h2>Money and time</h2>
      <Select
        label="Currency"
        value={draft.currency}
        onValue={set('currency')}
        options={currencyOptions(profile.currency)}
        error={errors.currency}
      />
      <Select
        label="Time zone"
        value={draft.time_zone}
        onValue={set('time_zone')}
        options={timeZoneOptions(profile.time_zone)}
        error={errors.time_zone}
      />
      <Field
        label="Time to answer a request (minutes)"
        type="number"
        min={1}
        max={10080}
        step={1}
        value={draft.request_ttl_minutes}
        onValue={set('request_ttl_minutes')}
        error={errors.request_ttl_minutes}
        hint={duration(draft.request_ttl_minutes)}
      />
      <Field
        label="Time for the customer to pay (minutes)"
        type="number"
        min={1}
        max={10080}
        step={1}
        value={draft.payment_ttl_minutes}
        onValue={set('payment_ttl_minutes')}
        error={errors.payment_ttl_minutes}
        hint={duration(draft.payment_ttl_minutes)}
      />
      <h2>Waiver</h2>
      <TextArea
        label="Waiver text"
        rows={8}
        value={draft.waiver_text}
        onValue={set('waiver_text')}
        error={errors.waiver_text}
        hint="Every booking then asks the customer to accept it by full name; each booking keeps a fingerprint of the text accepted. Leave empty for no waiver."
      />
      {saved && <Notice>Settings saved.</Notice>}
      <button type="submit" class="button primary" disabled={save.busy}>
        Save settings
      </button>
    </form>
  );
}

function EmbedSnippet({ slug, name }: { slug: string; name: string }) {
  const origin = window.location.origin;
  const title = name.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
  const snippet = `<iframe src="${origin}/embed/${slug}/" title="Book with ${title}" width="100%" height="800" loading="lazy"></iframe>`;
  return (
    <section class="stack narrow" aria-labelledby="embed-title">
      <h2 id="embed-title">Your storefront on your own site</h2>
      <p>
        Your storefront: <a href={`/v/${slug}`}>{`${origin}/v/${slug}`}</a>
      </p>
      <TextArea
        label="Embed code"
        readOnly
        rows={4}
        value={snippet}
        hint="Paste it into a page of your website."
      />
      <div class="row">
        <CopyButton text={snippet} what="the code" />
      </div>
    </section>
  );
}

export function SettingsPage() {
  const { user } = useSession();
  const profile = user?.vendor_profile;
  if (!profile) return null;
  return (
    <Page title="Settings">
      <ProfileForm profile={profile} />
      <OpeningHoursForm profile={profile} />
      <EmbedSnippet slug={profile.slug} name={profile.business_name} />
      <WebhooksSection timeZone={profile.time_zone} />
    </Page>
  );
}
