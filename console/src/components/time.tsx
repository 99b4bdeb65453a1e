/**
 * A time as the operator's clock reads it, with its UTC offset (`2026-05-01 13:00:00 UTC+03:00`), so that a time
 * read off a screenshot or told over the phone is unambiguous; the exact instant is in `datetime` and the title.
 */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span class="muted">—</span>;
  return (
    <time dateTime={value} title={value}>
      {formatTime(value)}
    </time>
  );
}

export function formatTime(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (number: number) => String(number).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())} ${utcOffset(date)}`;
}

/** The browser's offset from UTC at that instant (daylight saving included), e.g. `UTC+03:00`. */
export function utcOffset(date: Date): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(absolute / 60)).padStart(2, '0')}:${String(absolute % 60).padStart(2, '0')}`;
}
