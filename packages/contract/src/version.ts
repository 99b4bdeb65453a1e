import { Type, type Static } from 'typebox';

/** The gateway's release, for partners and monitoring: `GET /version` on the public listener. */
export const VERSION_PATH = '/version';

/**
 * What `GET /version` answers: the gateway's release, which is also the version of `@partner-gateway/contract`
 * and `@partner-gateway/client` released with it.
 *
 * @example
 * ```json
 * { "version": "0.1.0" }
 * ```
 */
export const VersionResponse = Type.Object({
  version: Type.String({ description: 'The gateway release (semantic versioning); @partner-gateway/client and @partner-gateway/contract of the same number were released with it' }),
}, { title: 'VersionResponse' });
export type VersionResponse = Static<typeof VersionResponse>;
