import { Type } from 'typebox';
import { PaginatedSchema } from '../../http/pagination.ts';
import { DateTimeIn, DateTimeOut, Named } from '../../http/schemas.ts';

// Shared resources in the API (decisions §22).

const name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'what the vendor and customers call it',
});
const quantity = Type.Integer({ minimum: 1, maximum: 10_000, description: 'how many exist' });

export const ResourceSchema = Named(
  'Resource',
  Type.Object(
    { id: Type.Integer(), name, quantity, created_at: DateTimeOut, updated_at: DateTimeOut },
    {
      examples: [
        {
          id: 1,
          name: 'RIB boat',
          quantity: 1,
          created_at: '2026-11-27T09:00:00Z',
          updated_at: '2026-11-27T09:00:00Z',
        },
      ],
    },
  ),
);
export const ResourcePage = PaginatedSchema(ResourceSchema);

export const CreateResourceBody = Type.Object(
  { name, quantity },
  { examples: [{ name: 'RIB boat', quantity: 1 }] },
);
export const UpdateResourceBody = Type.Object(
  { name: Type.Optional(name), quantity: Type.Optional(quantity) },
  { examples: [{ quantity: 2 }] },
);

export const UsageQuery = Type.Object({
  from: Type.Optional({ ...DateTimeIn, description: 'default now' }),
  to: Type.Optional({
    ...DateTimeIn,
    description: 'default from + 14 days; after from, at most 92 days later',
  }),
});

export const ResourceUsageSchema = Named(
  'ResourceUsage',
  Type.Object(
    {
      resource_id: Type.Integer(),
      quantity: Type.Integer(),
      from: DateTimeOut,
      to: DateTimeOut,
      segments: Type.Array(
        Type.Object({ starts_at: DateTimeOut, ends_at: DateTimeOut, used: Type.Integer({ minimum: 0 }) }),
        {
          description:
            'consecutive pieces of constant use covering [from, to), neighbours different; used counts every ' +
            'holding booking of every listing (window plus buffer; a per-departure use once per departure)',
        },
      ),
    },
    {
      examples: [
        {
          resource_id: 1,
          quantity: 1,
          from: '2026-07-01T08:00:00Z',
          to: '2026-07-01T14:00:00Z',
          segments: [
            { starts_at: '2026-07-01T08:00:00Z', ends_at: '2026-07-01T09:00:00Z', used: 0 },
            { starts_at: '2026-07-01T09:00:00Z', ends_at: '2026-07-01T13:00:00Z', used: 1 },
            { starts_at: '2026-07-01T13:00:00Z', ends_at: '2026-07-01T14:00:00Z', used: 0 },
          ],
        },
      ],
    },
  ),
);
