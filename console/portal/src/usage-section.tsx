import { SELF_USAGE_PATH } from '@partner-gateway/contract/paths';
import type { SelfUsageResponse } from '@partner-gateway/contract/self-service';
import { useEffect, useState } from 'preact/hooks';
import { call } from './portal-api';
import type { WordKey } from './words';

/** Calls per day over 30 days, as bars (the widest day fills the row), by operation and outcome. */
export function UsageSection({ words }: { words: (key: WordKey) => string }) {
  const [usage, setUsage] = useState<SelfUsageResponse['usage']>([]);
  useEffect(() => void call<SelfUsageResponse>('GET', SELF_USAGE_PATH).then((body) => setUsage(body.usage), () => undefined), []);
  const widest = Math.max(1, ...usage.map((row) => row.calls));
  return (
    <section aria-labelledby="usage">
      <h2 id="usage">{words('usage')}</h2>
      <table data-testid="usage">
        <tbody>
          {usage.map((row) => (
            <tr key={`${row.day}-${row.operation}-${row.outcome}`}>
              <td>{row.day}</td>
              <td>{row.operation}</td>
              <td>{row.outcome}</td>
              <td>
                <meter min={0} max={widest} value={row.calls} /> {row.calls}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
