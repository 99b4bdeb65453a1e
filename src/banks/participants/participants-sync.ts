import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { ParticipantEntry, ParticipantsRun } from '@partner-gateway/contract/admin-bank-participants';
import { AppError, errors } from '../../errors.js';
import { SYNC_AUTHOR } from '../bank-list-service.js';
import { DUE_HISTORY, isDue } from '../sync/sync-due.js';
import type { BankParticipants, ParticipantsSettings } from './bank-participants.js';
import { shownUrl, toRunView } from './participants-view.js';
import type { ParticipantRun, ParticipantsRepository } from './participants-repository.js';

/** What a download of the list gave: its bytes and the Content-Type they came with. */
export interface FetchedList {
  bytes: Uint8Array;
  contentType: string | undefined;
}

export interface ParticipantsSyncDependencies {
  participants: BankParticipants;
  repository: ParticipantsRepository;
  /** Downloads the list under the registry sync's fetch rules (time and size limits, https in production, no private address). */
  fetchList: (url: string) => Promise<FetchedList>;
  readList: (bytes: Uint8Array, contentType: string | undefined) => Promise<ParticipantEntry[]>;
  settings: ParticipantsSettings;
  now: () => number;
  /** Told of every run (the gateway logs failures and audits scheduled runs). */
  onRun: (run: ParticipantsRun) => void;
}

/**
 * The participant list's sync (BANKS_PARTICIPANTS_URL, every BANKS_PARTICIPANTS_SYNC_INTERVAL): the registry
 * sync's rules on a schedule of its own. A list that cannot be fetched or read changes nothing and is tried again
 * after a tenth of the interval; a reading that BANKS_PARTICIPANTS_REQUIRED would make take more banks from
 * partners than the removal guard allows is held (nothing applied: import the list to have a second operator
 * approve it); one instance runs at a time.
 *
 * @example
 * ```ts
 * await sync.tick(); // what the schedule calls: a run when one is due, undefined otherwise
 * ```
 */
export interface ParticipantsSync {
  /** Runs it now for an operator: the recorded run; 502 when the list failed, 409 when one is running or none is configured. */
  run(author: ActorRef): Promise<ParticipantsRun>;
  tick(): Promise<ParticipantsRun | undefined>;
}

/** A failure's words: an import error's description and its first problems, or the fetch's message (never a URL's query). */
function problemOf(error: unknown): string {
  if (error instanceof AppError) {
    const details = (error.extra.details ?? []).slice(0, 3).map((detail) => `${detail.field ?? `line ${detail.line}`}: ${detail.message}`);
    return details.length > 0 ? `${error.description} (${details.join('; ')})` : error.description;
  }
  return `the list could not be fetched: ${error instanceof Error ? error.message : String(error)}`;
}

export function createParticipantsSync(deps: ParticipantsSyncDependencies): ParticipantsSync {
  const { settings, repository, now } = deps;
  const url = () => {
    if (settings.url === undefined) throw errors.participantsSyncNotConfigured();
    return settings.url;
  };
  async function runLocked(trigger: 'schedule' | 'manual', author: ActorRef): Promise<ParticipantRun> {
    const source = url();
    const startedAt = new Date(now());
    let entries: ParticipantEntry[];
    try {
      const fetched = await deps.fetchList(source);
      entries = await deps.readList(fetched.bytes, fetched.contentType ?? (/\.csv$/i.test(new URL(source).pathname) ? 'text/csv' : 'application/json'));
    } catch (error) {
      const failed = await repository.recordRun({ startedAt, finishedAt: new Date(now()), trigger, author, source: shownUrl(source), outcome: 'failed', error: problemOf(error), version: null, matching: null });
      deps.onRun(toRunView(failed));
      return failed;
    }
    const { run } = await deps.participants.read(entries, { trigger, author, source: shownUrl(source) });
    deps.onRun(toRunView(run!));
    return run!;
  }
  return {
    async run(author) {
      url();
      const result = await repository.exclusive(() => runLocked('manual', author));
      if (!result.ran) throw errors.participantsSyncRunning();
      if (result.value.outcome === 'failed') throw errors.participantsSyncFailed(result.value.id, result.value.error ?? 'unknown');
      return toRunView(result.value);
    },
    async tick() {
      if (settings.url === undefined) return undefined;
      const result = await repository.exclusive(async () =>
        isDue(await repository.recent(DUE_HISTORY, true), now(), settings.intervalMs) ? runLocked('schedule', SYNC_AUTHOR) : undefined,
      );
      return result.ran && result.value ? toRunView(result.value) : undefined;
    },
  };
}
