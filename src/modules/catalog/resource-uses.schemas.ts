import { Type } from 'typebox';
import { Named, Ref, StringEnum } from '../../http/schemas.ts';
import { MAX_ID } from '../../lib/limits.ts';
import { MAX_RESOURCE_AMOUNT, MAX_RESOURCE_USES, RESOURCE_PER } from '../../lib/resource-uses.ts';

// A listing's uses of shared resources (decisions §22) in the API. The service checks them again
// (src/lib/resource-uses.ts) and that each id is the vendor's own, naming the member on failure.

const fields = {
  resource_id: Type.Integer({ minimum: 1, maximum: MAX_ID, description: 'one of your resources' }),
  per: StringEnum(RESOURCE_PER, {
    description:
      'booking: amount per booking; participant: amount × its participants (adventures); unit: amount × ' +
      'its quantity (equipment); departure: amount once for all holding bookings with the same window',
  }),
  amount: Type.Integer({ minimum: 1, maximum: MAX_RESOURCE_AMOUNT }),
};

export const ResourceUseSchema = Named(
  'ResourceUse',
  Type.Object(fields, { examples: [{ resource_id: 1, per: 'departure', amount: 1 }] }),
);

export const RESOURCE_USES_IN = Type.Array(Type.Object(fields), {
  maxItems: MAX_RESOURCE_USES,
  description:
    'shared resources the listing uses while a booking holds (its window plus buffer_minutes); [] (default): ' +
    'none. At no instant may all listings together use more of a resource than its quantity.',
});
export const RESOURCE_USES_OUT = Type.Array(Ref(ResourceUseSchema));
