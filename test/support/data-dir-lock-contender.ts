/**
 * A process that contends for DATA_DIR locks when told (data-dir-lock.test.ts): each line `try <dir>` on stdin makes
 * it try to lock `<dir>` without waiting and answer `won` or `lost`; `release` lets go of what it holds. Several run
 * at once, so that their attempts race as separate processes would.
 */
import { createInterface } from 'node:readline';
import { lockDataDir } from '../../src/bootstrap/data-dir-lock.js';

let unlock: (() => void) | undefined;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.startsWith('try ')) {
    try {
      unlock = await lockDataDir(line.slice(4), { waitMs: 0 });
      process.stdout.write('won\n');
    } catch (error) {
      process.stdout.write(/in use by process/.test(String(error)) ? 'lost\n' : `error ${String(error)}\n`);
    }
  } else if (line === 'release') {
    unlock?.();
    unlock = undefined;
    process.stdout.write('released\n');
  }
}
