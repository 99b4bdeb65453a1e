import { useState } from 'preact/hooks';
import { errorsFrom, type FormErrors, noErrors } from './forms';

/** How a refusal is put on a form: the form's fields (errorsFrom sorts the problems onto them), or a function of its own. */
export type Refusal = readonly string[] | ((error: unknown) => FormErrors);

/** What a form or a button that changes something holds: whether a change runs, what was refused, and how to run one. */
export interface Mutation {
  busy: boolean;
  errors: FormErrors;
  setErrors: (errors: FormErrors) => void;
  /**
   * Runs `change` (busy meanwhile); on success clears the errors and runs `done` (announce, refresh, close), whose
   * failure is shown like the change's; on failure sorts the refusal onto the form's fields. True when it succeeded
   * (a change held for approval is neither: no error, and false). `refusal` replaces the hook's for this change.
   */
  run<R>(change: () => Promise<R>, done?: (result: R) => void | Promise<void>, refusal?: Refusal): Promise<boolean>;
}

/**
 * The one shape of every console change: busy flag, the API's refusal in words on the form's fields (errorsFrom;
 * a 409 without a list on `conflictField`) or as `refusal` puts it, errors cleared on success, then the follow-up.
 *
 * @example
 * ```tsx
 * const save = useMutation(['rewardTypes']);
 * <form onSubmit={(event) => { event.preventDefault(); void save.run(() => admin.partners.update(login, body), onSaved); }}>
 * ```
 */
export function useMutation(refusal: Refusal = [], conflictField?: string): Mutation {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const refused = (error: unknown, how: Refusal) => (typeof how === 'function' ? how(error) : errorsFrom(error, how, conflictField));
  async function run<R>(change: () => Promise<R>, done?: (result: R) => void | Promise<void>, how: Refusal = refusal): Promise<boolean> {
    setBusy(true);
    try {
      const result = await change();
      setErrors(noErrors);
      await done?.(result);
      return true;
    } catch (error) {
      setErrors(refused(error, how));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, errors, setErrors, run };
}
