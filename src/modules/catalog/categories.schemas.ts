import { Type } from 'typebox';
import { PaginatedSchema } from '../../http/pagination.ts';
import { Named } from '../../http/schemas.ts';

export const CategorySchema = Named(
  'Category',
  Type.Object(
    {
      id: Type.Integer(),
      name: Type.String(),
      slug: Type.String(),
      description: Type.String(),
    },
    { examples: [{ id: 2, name: 'Kayaks', slug: 'kayaks', description: 'Sit-on-top and touring kayaks.' }] },
  ),
);
export const CategoryPage = PaginatedSchema(CategorySchema);

/** A category as listings show it. */
export const CategoryRefSchema = Named(
  'CategoryRef',
  Type.Object(
    {
      id: Type.Integer(),
      name: Type.String(),
      slug: Type.String(),
    },
    { examples: [{ id: 2, name: 'Kayaks', slug: 'kayaks' }] },
  ),
);

const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'the slug is derived from it; it must contain a letter',
});
const Description = Type.String({ maxLength: 2000 });

export const CreateCategoryBody = Type.Object(
  { name: Name, description: Type.Optional(Description) },
  { examples: [{ name: 'Kayaks', description: 'Sit-on-top and touring kayaks.' }] },
);
export const UpdateCategoryBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
  },
  { examples: [{ description: 'Sit-on-top, touring and inflatable kayaks.' }] },
);
