import { Type, type Static } from 'typebox';

/** The admin API's key shapes: keys in service, never a private half. */

export const KeyUse = Type.Union([Type.Literal('sig'), Type.Literal('enc')], { title: 'KeyUse' });
export type KeyUse = Static<typeof KeyUse>;

export const KeyView = Type.Object({
  kid: Type.String(),
  use: KeyUse,
  alg: Type.String(),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  retiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  usableUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { title: 'KeyView' });
export type KeyView = Static<typeof KeyView>;

export const KeyList = Type.Object({ keys: Type.Array(KeyView) }, { title: 'KeyList' });
export type KeyList = Static<typeof KeyList>;

/** POST /admin/v1/keys/rotate body. */
export const RotateKeyBody = Type.Object({ use: KeyUse }, { title: 'RotateKeyBody', additionalProperties: false });
export type RotateKeyBody = Static<typeof RotateKeyBody>;

/** POST /admin/v1/keys/{kid}/revoke: the key to drop at once (the answer is its KeyView, usable until now). */
export const KidParams = Type.Object({ kid: Type.String({ minLength: 1, maxLength: 200 }) }, { title: 'KidParams' });
export type KidParams = Static<typeof KidParams>;
