import { useEffect, useState } from 'react';
import { useClient } from '../app/client';

/** Whether the desktop shell is there (native folder picker, "open file"); asked once. */
export function useDesktop(): boolean {
  const client = useClient();
  const [desktop, setDesktop] = useState(false);
  useEffect(() => {
    let live = true;
    client.status({}).then(
      (s) => live && setDesktop(s.desktop),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [client]);
  return desktop;
}
