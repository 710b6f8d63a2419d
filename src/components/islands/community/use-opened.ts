import { useEffect, useState } from 'react';
import type { OpenedContent } from '../../../stores/content-editor.ts';

export type Opened<T> =
  { state: 'loading' } | { state: 'ready'; item: T | null } | { state: 'refused'; message: string };

/**
 * The item an editor opens: none for a new one (`id` null), else read in the browser through the API,
 * so the viewer's login decides what they may edit (the server HTML holds no one's drafts).
 */
export function useOpened<T>(id: number | null, open: (id: number) => Promise<OpenedContent<T>>): Opened<T> {
  const [opened, setOpened] = useState<Opened<T>>(id === null ? { state: 'ready', item: null } : { state: 'loading' });
  useEffect(() => {
    if (id === null) return;
    let current = true;
    void open(id).then((outcome) => {
      if (!current) return;
      setOpened(outcome.ok ? { state: 'ready', item: outcome.item } : { state: 'refused', message: outcome.message });
    });
    return () => {
      current = false;
    };
  }, [id, open]);
  return opened;
}
