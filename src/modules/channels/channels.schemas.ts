import { Type } from 'typebox';
import { PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeOut, Named } from '../../http/schemas.ts';

// Channels in the API (decisions §24).

const name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'what the vendor calls the reseller or system (its bookings are labelled with it)',
});
const isActive = Type.Boolean({ description: 'false: its key is refused (403 FORBIDDEN) until reactivated' });

const channelFields = {
  id: Type.Integer(),
  name,
  is_active: isActive,
  created_at: DateTimeOut,
  updated_at: DateTimeOut,
};
const example = {
  id: 1,
  name: 'Harbour Hotel concierge',
  is_active: true,
  created_at: '2026-12-01T09:00:00.000Z',
  updated_at: '2026-12-01T09:00:00.000Z',
};

export const ChannelSchema = Named('Channel', Type.Object(channelFields, { examples: [example] }));
export const ChannelPage = PaginatedSchema(ChannelSchema);

export const ChannelWithKeySchema = Named(
  'ChannelWithKey',
  Type.Object(
    {
      ...channelFields,
      api_key: Type.String({
        description:
          'the key, shown only in this answer (stored as a hash): resellers send it as `Authorization: Bearer <api_key>` to /octo/v1/',
      }),
    },
    { examples: [{ ...example, api_key: 'wbk_ZXhhbXBsZSBrZXk6IG5vdCBhIHJlYWwgb25lISEhISE' }] },
  ),
);

export const CreateChannelBody = Type.Object({ name }, { examples: [{ name: 'Harbour Hotel concierge' }] });
export const UpdateChannelBody = Type.Object(
  { name: Type.Optional(name), is_active: Type.Optional(isActive) },
  { examples: [{ is_active: false }] },
);
