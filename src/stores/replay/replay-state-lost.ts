/**
 * Thrown by a replay store whose sentinel is not the one the gateway knows: the store lost its jtis (an
 * emptied or truncated table, a PostgreSQL crash, a Redis restart), or another instance found that loss first
 * and set a new sentinel. Nothing was claimed in that store. The caller (createSingleUseJtis) has the loss
 * recorded, learns the new epoch, and claims again (unless `claimed`).
 */
export class ReplayStateLost extends Error {
  override name = 'ReplayStateLost';
  /**
   * `scope`: the replay_state scope whose sentinel did not match, `database` or `redis:<prefix>`. `claimed`:
   * the jti was claimed all the same, as new, in another store that holds it (the database, while claims go to
   * both): claiming again would find it there.
   */
  constructor(
    readonly scope: string,
    readonly claimed = false,
  ) {
    super(`replay state of ${scope} is not the one this instance knows: it was lost or found lost`);
  }
}
