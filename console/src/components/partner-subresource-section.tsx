import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { describeProblem, type Problem } from '@partner-gateway/contract/error-body';
import type { ComponentChildren, ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { ApiError, ProposedChange } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { FormAlert, type FormErrors, noErrors } from './forms';
import { useMutation } from './use-mutation';

/**
 * One of a partner's sub-resources (its keys, its certificates, …) as the partner page shows it: what is
 * registered, the form(s) that replace it, and its removal (after a confirmation). Everything but this
 * description is the same for all; the page never sees more of it than the admin API's view.
 */
export interface PartnerSubresource<Body, View> {
  /** Names the section (`${id}-title`) and its empty state (`partner-${id}-none`). */
  id: string;
  /** The section's heading: `Public keys`. */
  title: string;
  /** What it is called in a sentence: `keys` (`Register keys`, `Remove the keys of acme?`). */
  noun: string;
  /** Its part of the partner view: null when the partner has none. */
  viewOf(partner: PartnerView): View | null;
  /** Said when the partner has none: `No keys registered: the partner cannot use private_key_jwt.` */
  none: string;
  /** What is registered (above the remove button). */
  Registered: ComponentType<{ view: View; partner: PartnerView }>;
  /** The form(s) that set it: each reads its fields into a body and hands it to `save`. */
  Form: ComponentType<SubresourceFormProps<Body, View>>;
  /** The title above the form(s) of a refusal that names no field. */
  refused: string;
  /** What removing it does to the partner, in the confirmation. */
  removal: ComponentChildren;
  /** How a refused part reads under its field (default: `field: message`). */
  problemText?(problem: Problem): string;
  /** The admin API's calls for it. */
  set(login: string, body: Body): Promise<View>;
  remove(login: string): Promise<void>;
}

/** What the section gives its form. */
export interface SubresourceFormProps<Body, View> {
  partner: PartnerView;
  busy: boolean;
  errors: FormErrors;
  /**
   * Sends `body`; once it is registered, announces `done(view)` and reloads the partner (true). A refusal goes
   * under `field`, each refused part named (false).
   */
  save(body: Body, field: string, done: (view: View) => string): Promise<boolean>;
  /** Shows a problem the page found itself under `field`; nothing is sent. */
  refuse(field: string, message: string): void;
}

/**
 * @example
 * ```tsx
 * <PartnerSubresourceSection subresource={partnerKeys} partner={partner} onSaved={refresh} />
 * ```
 */
export function PartnerSubresourceSection<Body, View>({ subresource, partner, onSaved }: { subresource: PartnerSubresource<Body, View>; partner: PartnerView; onSaved: () => Promise<void> }) {
  const { busy, errors, setErrors, run } = useMutation();
  const [removing, setRemoving] = useState(false);
  const { id, noun, Registered, Form } = subresource;
  const view = subresource.viewOf(partner);

  async function change(action: () => Promise<string>, field: string | undefined): Promise<boolean> {
    return run(action, async (done) => {
      announce(done);
      await onSaved();
    }, (error) => errorsOf(error, field, subresource.problemText ?? describeProblem));
  }

  const save = (body: Body, field: string, done: (view: View) => string) => change(async () => done(await subresource.set(partner.login, body)), field);
  async function remove() {
    await change(async () => (await subresource.remove(partner.login), `The ${noun} of ${partner.login} were removed.`), undefined);
    setRemoving(false);
  }

  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{subresource.title}</h2>
      {view === null ? (
        <p data-testid={`partner-${id}-none`}>{subresource.none}</p>
      ) : (
        <>
          <Registered view={view} partner={partner} />
          <div class="actions">
            <button type="button" class="danger-quiet" onClick={() => setRemoving(true)}>
              {`Remove ${noun}`}
            </button>
          </div>
        </>
      )}
      <h3>Register {noun}</h3>
      <FormAlert errors={errors.form} title={subresource.refused} />
      <Form partner={partner} busy={busy} errors={errors} save={save} refuse={(field, message) => setErrors({ fields: { [field]: [message] }, form: [] })} />
      <ConfirmDialog open={removing} title={`Remove the ${noun} of ${partner.login}?`} confirmLabel={`Remove ${noun}`} danger busy={busy} onConfirm={() => void remove()} onCancel={() => setRemoving(false)}>
        <p>{subresource.removal}</p>
      </ConfirmDialog>
    </section>
  );
}

/**
 * A table of a sub-resource's items (its keys, its certificates) under a caption for screen readers and a heading
 * per column; `children` are the rows, each led by a row heading.
 */
export function ItemTable({ caption, columns, children }: { caption: string; columns: readonly string[]; children: ComponentChildren }) {
  return (
    <div class="table-scroll">
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** The gateway's refusal under the field it concerns (above the form when none), each refused part named. */
function errorsOf(error: unknown, field: string | undefined, problemText: (problem: Problem) => string): FormErrors {
  if (!(error instanceof ApiError)) return { fields: {}, form: [error instanceof Error ? error.message : String(error)] };
  if (error instanceof ProposedChange) return noErrors;
  if (error.problems.length === 0) return { fields: {}, form: [error.description] };
  const messages = error.problems.map(problemText);
  return field === undefined ? { fields: {}, form: messages } : { fields: { [field]: messages }, form: [] };
}
