import { Type } from 'typebox';

export const CategorySchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
});

/** A category as listings show it. */
export const CategoryRefSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
});

const Name = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'the slug is derived from it; it must contain a letter',
});
const Description = Type.String({ maxLength: 2000 });

export const CreateCategoryBody = Type.Object({ name: Name, description: Type.Optional(Description) });
export const UpdateCategoryBody = Type.Object({
  name: Type.Optional(Name),
  description: Type.Optional(Description),
});
