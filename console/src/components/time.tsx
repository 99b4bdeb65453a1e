/** A time as the operator's clock reads it (YYYY-MM-DD HH:MM:SS), with the exact instant in `datetime`. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">—</span>;
  return <time dateTime={value}>{formatTime(value)}</time>;
}

export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (number: number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
