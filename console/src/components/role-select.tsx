import { OPERATOR_ROLES, type OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { Field } from './forms';

/** A labelled choice of the three roles. */
export function RoleSelect({ id, value, onChange, errors }: { id: string; value: OperatorRole; onChange: (role: OperatorRole) => void; errors?: string[] | undefined }) {
  return (
    <Field id={id} label="Role" errors={errors}>
      {(control) => (
        <select {...control} value={value} onChange={(event) => onChange(event.currentTarget.value as OperatorRole)}>
          {OPERATOR_ROLES.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
