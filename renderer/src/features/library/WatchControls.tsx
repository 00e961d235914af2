import { useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient } from '../../app/client';
import { ErrorNote } from '../../common/ErrorNote';
import { formatNumber } from '../../common/format';

type Watch = Output<'setWatch'>;
type State = Watch['state'];

/** A sentence for where a folder's watching stands. */
export function watchSentence(w: Watch): string {
  const waiting = w.queued === 1 ? '1 change waiting' : `${formatNumber(w.queued)} changes waiting`;
  if (w.state === 'off') return w.queued > 0 ? `Not watched · ${waiting} (Re-sync imports them)` : 'Not watched: changes are imported when you Re-sync.';
  if (w.state === 'paused') return w.queued > 0 ? `Watching paused · ${waiting}` : 'Watching paused: changes will be imported when you resume.';
  // Not "up to date" under a green light while the folder is gone or the system stopped watching it: the note below says why.
  if (w.error) return w.queued > 0 ? `Watching, with a problem · ${waiting}` : 'Watching, with a problem';
  if (w.busy) return w.queued > 0 ? `Watching · importing ${w.queued === 1 ? '1 change' : `${formatNumber(w.queued)} changes`}…` : 'Watching · importing…';
  return w.queued > 0 ? `Watching · ${waiting}` : 'Watching · up to date';
}

/** Watch a folder for changes, pause, resume or stop. */
export function WatchControls({ collectionId, watch }: { collectionId: string; watch: Watch }) {
  const client = useClient();
  const [pending, setPending] = useState<State | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  const set = async (state: State) => {
    setPending(state);
    setError(null);
    try {
      await client.setWatch({ collectionId, state });
    } catch (e) {
      setError(describeError(e));
    } finally {
      setPending(null);
    }
  };
  const button = (state: State, label: string) => (
    <button type="button" className="button button--small" onClick={() => void set(state)} disabled={pending !== null}>
      {pending === state ? `${label}…` : label}
    </button>
  );

  return (
    <div className="watch" data-testid="watch-controls">
      <p className={`small watch__state watch__state--${watch.state === 'watching' && watch.error ? 'trouble' : watch.state}`} role="status">
        {watchSentence(watch)}
      </p>
      <div className="row">
        {watch.state === 'off' && button('watching', 'Watch for changes')}
        {watch.state === 'watching' && button('paused', 'Pause')}
        {watch.state === 'paused' && button('watching', 'Resume')}
        {watch.state !== 'off' && button('off', 'Stop watching')}
      </div>
      {watch.error && (
        <p className="warning small" role="note">
          {watch.error}
        </p>
      )}
      {error && <ErrorNote error={error} />}
    </div>
  );
}
