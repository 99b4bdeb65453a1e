import { useState } from 'preact/hooks';
import { wordsOf } from './portal-api';

/**
 * The one shape of every portal call a section makes: the last refusal in words (cleared when the next call
 * starts), and `attempt`, which runs a call and keeps its refusal instead of throwing.
 *
 * @example
 * ```tsx
 * const { problem, attempt } = useAttempt();
 * <button onClick={() => void attempt(async () => setKeys((await call<SelfKeysResponse>('GET', SELF_KEYS_PATH)).keys))} />
 * ```
 */
export function useAttempt(): { problem: string; attempt: (work: () => Promise<unknown>) => Promise<void> } {
  const [problem, setProblem] = useState('');
  async function attempt(work: () => Promise<unknown>): Promise<void> {
    setProblem('');
    try {
      await work();
    } catch (error) {
      setProblem(wordsOf(error));
    }
  }
  return { problem, attempt };
}
