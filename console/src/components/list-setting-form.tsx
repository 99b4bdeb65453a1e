import type { UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { Field, FormAlert } from './forms';
import { useMutation } from './use-mutation';

/** The partner settings that are lists edited as text and saved with one PATCH (reward types are ticked: reward-types-form.tsx). */
type ListSetting = 'ipAllowlist';

export interface ListSettingFormProps {
  login: string;
  setting: ListSetting;
  values: string[];
  /** `id` prefix of the section title, and the texts the operator sees. */
  sectionId: string;
  title: string;
  label: string;
  hint: string;
  notSavedTitle: string;
  saveLabel: string;
  /** One entry a line (a textarea), or a single line separated by commas. */
  multiline: boolean;
  split: (text: string) => string[];
  /** The form's own check, worded as the gateway words it; the gateway checks again. */
  problems: (values: string[]) => string[];
  saved: (values: string[]) => string;
  onSaved: () => Promise<void>;
}

/** One list setting of a partner (its IP allowlist): checked here, then PATCHed. */
export function ListSettingForm(props: ListSettingFormProps) {
  const [text, setText] = useState(props.values.join(props.multiline ? '\n' : ', '));
  const { busy, errors, setErrors, run } = useMutation([props.setting]);
  async function submit(event: Event) {
    event.preventDefault();
    const values = props.split(text);
    const problems = props.problems(values);
    if (problems.length > 0) {
      setErrors({ fields: { [props.setting]: problems }, form: [] });
      return;
    }
    await run(async () => {
      const change: UpdatePartnerBody = { [props.setting]: values };
      await admin.partners.update(props.login, change);
      announce(props.saved(values));
      await props.onSaved();
    });
  }
  const onInput = (event: { currentTarget: { value: string } }) => setText(event.currentTarget.value);
  return (
    <section aria-labelledby={`${props.sectionId}-title`}>
      <h2 id={`${props.sectionId}-title`}>{props.title}</h2>
      <FormAlert errors={errors.form} title={props.notSavedTitle} />
      <form onSubmit={submit} noValidate class="form">
        <Field id={props.setting} label={props.label} hint={props.hint} errors={errors.fields[props.setting]}>
          {(control) =>
            props.multiline ? (
              <textarea {...control} rows={Math.max(3, props.values.length + 1)} spellcheck={false} value={text} onInput={onInput} />
            ) : (
              <input {...control} spellcheck={false} value={text} onInput={onInput} />
            )
          }
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Saving…' : props.saveLabel}
          </button>
        </div>
      </form>
    </section>
  );
}
