/**
 * Child process of request-preparation.test.ts: prepares the DPoP banks scenario's requests as bench/oauth-
 * scenarios.ts does, for a bearer rate and a duration given as arguments, into a file; run with a small heap
 * cap, it ends only if the preparation's memory does not grow with the file.
 */
import { writeDpopBanksRequests, benchProofs } from '../../bench/support/oauth-requests.js';
import { preparedCount } from '../../bench/support/request-file.js';

const [file, rate, seconds] = process.argv.slice(2);
const count = preparedCount(Number(rate), Number(seconds));
// An access token of the gateway's size; a proof's ath is its hash, whatever it holds.
const accessToken = `eyJ${'a'.repeat(40)}.eyJ${'b'.repeat(500)}.${'c'.repeat(86)}`;
const spec = await writeDpopBanksRequests(file!, { banksUrl: 'http://127.0.0.1:8080/partner/provider/sbp/banks/', accessToken, proofs: benchProofs(20), count });
process.stdout.write(`${JSON.stringify({ count, spec })}\n`);
