import { Type } from 'typebox';
import { DateTimeOut, Nullable, Text } from '../../http/schemas.ts';

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 1, maxLength: 1024, writeOnly: true });
const OptionalText = (max: number) => Type.Optional(Text(max));
const ContactEmail = Type.Union([Type.Literal(''), Type.String({ format: 'email', maxLength: 254 })]);

export const VendorProfileSchema = Type.Object({
  business_name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  contact_phone: Type.String(),
  contact_email: Type.String(),
  address_line1: Type.String(),
  address_line2: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postal_code: Type.String(),
  country: Type.String(),
  created_at: DateTimeOut,
  updated_at: DateTimeOut,
});

export const UserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  phone_number: Type.String(),
  is_vendor: Type.Boolean(),
  is_customer: Type.Boolean(),
  vendor_profile: Nullable(VendorProfileSchema),
  date_joined: DateTimeOut,
});

const userFields = {
  email: Email,
  password: Password,
  first_name: OptionalText(150),
  last_name: OptionalText(150),
  phone_number: OptionalText(40),
};

const profileFields = {
  description: OptionalText(5000),
  contact_phone: OptionalText(40),
  contact_email: Type.Optional(ContactEmail),
  address_line1: OptionalText(200),
  address_line2: OptionalText(200),
  city: OptionalText(120),
  state: OptionalText(120),
  postal_code: OptionalText(20),
  country: OptionalText(120),
};

export const RegisterCustomerBody = Type.Object(userFields);

export const RegisterVendorBody = Type.Object({
  ...userFields,
  business_name: Type.String({ minLength: 1, maxLength: 200 }),
  ...profileFields,
});

export const UpdateVendorProfileBody = Type.Object({
  business_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  ...profileFields,
});

export const LoginBody = Type.Object({ email: Type.String({ maxLength: 254 }), password: Password });
export const RefreshBody = Type.Object({ refresh: Type.String({ minLength: 1, maxLength: 4096 }) });
export const TokenPairSchema = Type.Object({ refresh: Type.String(), access: Type.String() });
