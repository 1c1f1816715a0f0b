// The vendor's liability waiver in the booking form (decisions §23, §26): its text, a `Full name` field and
// an `I accept the waiver` checkbox. The text is the vendor's public storefront profile's.
import { useEffect, useState } from 'preact/hooks';
import { Checkbox, Field } from '../ui.tsx';
import { fetchStorefront, kindOf, type Listing } from './listing.ts';

/** The vendor's waiver text ('' when none, or until it is known) and the customer's acceptance of it. */
export function useWaiver(listing: Listing) {
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [accepted, setAccepted] = useState(false);
  useEffect(() => {
    let live = true;
    fetchStorefront(kindOf(listing), listing.vendor.slug, 1)
      .then((store) => live && setText(store.vendor.waiver_text))
      .catch(() => live && setText(''));
    return () => {
      live = false;
    };
  }, [listing.vendor.slug]);
  return {
    text,
    name,
    setName,
    accepted,
    setAccepted,
    body: text ? { waiver_acceptance: { accepted, name } } : {},
  };
}
export type WaiverState = ReturnType<typeof useWaiver>;

export function Waiver({ waiver, errors }: { waiver: WaiverState; errors: Record<string, string[]> }) {
  if (!waiver.text) return null;
  return (
    <fieldset class="stack">
      <legend>Waiver</legend>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a long text scrolls by keyboard too */}
      <section class="waiver-text" aria-label="Waiver text" tabIndex={0}>
        {waiver.text}
      </section>
      <Field
        label="Full name"
        value={waiver.name}
        onValue={waiver.setName}
        maxLength={200}
        autoComplete="name"
        error={errors.waiver_acceptance}
      />
      <Checkbox label="I accept the waiver" checked={waiver.accepted} onChecked={waiver.setAccepted} />
    </fieldset>
  );
}
