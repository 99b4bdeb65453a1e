import { Type } from 'typebox';

/** Every error response: the seed's description_status, plus the list of offending fields or rows when there is one. */
export const ErrorBody = Type.Object({
  description_status: Type.String(),
  errors: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.Optional(Type.String()),
        line: Type.Optional(Type.Integer()),
        entry: Type.Optional(Type.String()),
        message: Type.String(),
      }),
    ),
  ),
});
