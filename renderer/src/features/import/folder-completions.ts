import { useEffect, useState } from 'react';
import { useClient } from '../../app/client';

/** How long typing pauses before the folders under it are asked for. */
const PAUSE_MS = 150;

/** Folders completing the path being typed (browser mode has no folder picker); none for a bare word. */
export function useFolderCompletions(typed: string): string[] {
  const client = useClient();
  const [folders, setFolders] = useState<string[]>([]);
  useEffect(() => {
    const prefix = typed.trim();
    if (!/^(~|\/|[A-Za-z]:[\\/])/.test(prefix)) {
      setFolders([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      client.completeFolder({ prefix }).then(
        (r) => live && setFolders(r.folders),
        () => live && setFolders([]),
      );
    }, PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, typed]);
  return folders;
}
