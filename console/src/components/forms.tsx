import type { ComponentChildren, JSX } from 'preact';
import { describeProblem, type Problem } from '@partner-gateway/contract/error-body';
import { ApiError, ProposedChange } from '../api';
import { problemsInWords } from '../problem-words';

/** Messages by form field, plus those that concern the form as a whole. */
export interface FormErrors {
  fields: Record<string, string[]>;
  form: string[];
}

export const noErrors: FormErrors = { fields: {}, form: [] };

export function hasErrors(errors: FormErrors): boolean {
  return errors.form.length > 0 || Object.values(errors.fields).some((messages) => messages.length > 0);
}

/** The field a problem concerns, by the root of its path: `ipAllowlist[1]` → ipAllowlist, `body.bic` → bic. */
function rootField(field: string): string {
  return field.replace(/^body\./, '').replace(/[[.].*$/, '');
}

/**
 * Sorts an API error's problems, in words (problem-words.ts: the field named, what a valid value looks like), onto
 * the form's fields; what names no field of the form goes above the form
 * with the API's description. A refusal without a list (409 "already exists") goes to `conflictField` when
 * given, else above the form. A change held for approval (202) is no error: no message.
 */
export function errorsFrom(error: unknown, fields: readonly string[], conflictField?: string): FormErrors {
  // Held for approval: not an error; the shell says "sent for approval" (api.ts onProposed).
  if (error instanceof ProposedChange) return noErrors;
  if (!(error instanceof ApiError)) return { fields: {}, form: [error instanceof Error ? error.message : String(error)] };
  if (error.problems.length === 0) {
    if (conflictField && error.status === 409) return { fields: { [conflictField]: [error.description] }, form: [] };
    return { fields: {}, form: [error.description] };
  }
  const result: FormErrors = { fields: {}, form: [] };
  const leftOver: Problem[] = [];
  for (const problem of problemsInWords(error.problems)) {
    const field = problem.field === undefined ? undefined : rootField(problem.field);
    if (field !== undefined && fields.includes(field)) (result.fields[field] ??= []).push(problem.message);
    else leftOver.push(problem);
  }
  // In words, a problem names its field already (problemsInWords); a row or entry is named by describeProblem.
  const sentence = (problem: Problem) => (problem.field !== undefined ? problem.message : describeProblem(problem));
  result.form = leftOver.length > 0 ? [error.description, ...leftOver.map(sentence)] : ['Correct the fields marked below.'];
  return result;
}


/** The form-level errors, announced when they appear. */
export function FormAlert({ errors, title = 'This could not be saved' }: { errors: string[]; title?: string }) {
  if (errors.length === 0) return null;
  return (
    <div class="alert" role="alert">
      <p class="alert-title">{title}</p>
      {errors.length === 1 ? <p>{errors[0]}</p> : <ul>{errors.map((message) => <li>{message}</li>)}</ul>}
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  hint?: ComponentChildren;
  errors?: string[] | undefined;
  /** Renders the control with the attributes that tie it to its label, hint and errors. */
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: 'true' }) => JSX.Element;
}

/** A labelled control with its hint and, right below it, the messages about its value. */
export function Field({ id, label, hint, errors = [], children }: FieldProps) {
  const describedBy = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${errors.length > 0 ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, ...(describedBy ? { 'aria-describedby': describedBy } : {}), ...(errors.length > 0 ? { 'aria-invalid': 'true' as const } : {}) })}
      {errors.length > 0 && (
        <div class="field-error" id={`${id}-error`} data-field-error={id}>
          {errors.length === 1 ? <p>{errors[0]}</p> : <ul>{errors.map((message) => <li>{message}</li>)}</ul>}
        </div>
      )}
    </div>
  );
}

/** A form's text inputs described field by field: labels, hints, which take digits, and what each holds. */
export interface TextFieldsProps<F extends string> {
  fields: readonly F[];
  /** Each input's id is the prefix and the field (`bank-bic`), the id its messages and hint are tied to. */
  idPrefix: string;
  labels: Record<F, string>;
  hints: Record<F, string>;
  numeric: Record<F, boolean>;
  values: Record<F, string>;
  errors: FormErrors;
  onChange: (values: Record<F, string>) => void;
}

/** One labelled text input per field, each with its hint and its messages. */
export function TextFields<F extends string>({ fields, idPrefix, labels, hints, numeric, values, errors, onChange }: TextFieldsProps<F>) {
  return (
    <>
      {fields.map((field) => (
        <Field key={field} id={`${idPrefix}-${field}`} label={labels[field]} hint={hints[field]} errors={errors.fields[field]}>
          {(control) => (
            <input
              {...control}
              spellcheck={false}
              inputMode={numeric[field] ? 'numeric' : undefined}
              value={values[field]}
              onInput={(event) => onChange({ ...values, [field]: event.currentTarget.value })}
            />
          )}
        </Field>
      ))}
    </>
  );
}
