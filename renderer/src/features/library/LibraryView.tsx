import { useCallback, useEffect, useRef, useState } from 'react';
import type { Output } from '../../../../shared/contract';
import { describeError, type DescribedError } from '../../api/messages';
import { useClient, useJobs } from '../../app/client';
import { useImportJob } from '../import/import-job';
import { ErrorNote } from '../../common/ErrorNote';
import { ImportPanel } from '../import/ImportPanel';
import { CollectionCard } from './CollectionCard';

type Library = Output<'library'>;

/** Every imported folder with its documents; importing another folder. */
export function LibraryView() {
  const client = useClient();
  const jobs = useJobs();
  const importJob = useImportJob();
  const [library, setLibrary] = useState<Library | null>(null);
  const [error, setError] = useState<DescribedError | null>(null);

  // A watched folder changes the library often: one load at a time, and one more after it if
  // anything changed meanwhile, however many events arrived.
  const loading = useRef<'idle' | 'busy' | 'again'>('idle');
  // The sample notes stay a click away after the first run, for a second look or a fresh index.
  const trySample = async () => {
    try {
      await importJob.start((await client.sampleNotes({})).path);
    } catch (e) {
      setError(describeError(e));
    }
  };

  const load = useCallback(() => {
    if (loading.current !== 'idle') {
      loading.current = 'again';
      return;
    }
    loading.current = 'busy';
    client
      .library({})
      .then(
        (l) => {
          setLibrary(l);
          setError(null);
        },
        (e: unknown) => setError(describeError(e)),
      )
      .finally(() => {
        const again = loading.current === 'again';
        loading.current = 'idle';
        if (again) load();
      });
  }, [client]);

  useEffect(() => {
    load();
    return jobs.onEvent((e) => {
      if (e.type === 'library.changed' || e.type === 'events.gap') load();
    });
  }, [jobs, load]);

  return (
    <div className="library">
      <h1>Library</h1>
      <section className="card" aria-labelledby="import-title">
        <h2 id="import-title" className="section-title">
          Import a folder
        </h2>
        <ImportPanel job={importJob} />
        <button type="button" className="button button--quiet" data-testid="try-sample-notes" disabled={importJob.running} onClick={() => void trySample()}>
          Try the sample notes
        </button>
      </section>
      {error && <ErrorNote error={error} />}
      {library?.warnings?.map((w) => (
        // Upkeep after an import or a forget that failed (the documents are in, the folder gone): said until it next succeeds.
        <p key={w.message} className="warning" role="note" data-testid="library-warning">
          {w.message}
        </p>
      ))}
      {library && library.collections.length === 0 && <p className="muted">Nothing imported yet.</p>}
      {library?.collections.map((c) => (
        <CollectionCard key={c.id} collection={c} />
      ))}
    </div>
  );
}
