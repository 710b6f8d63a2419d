import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { EditType } from '../../../shared/creator/creator-model.ts';
import { isEditorGroup } from '../../../shared/creator/creator-model.ts';
import { editorPath } from '../../../stores/item-editor.ts';
import { $session, hydrateSessionFromCookies } from '../../../stores/session.ts';

interface Props {
  type: EditType;
  id: number;
  /** The texts, given by the server so the page carries no extra message area. */
  editLabel: string;
  suggestLabel: string;
}

/**
 * A small link from a catalogue page to its editor: "Edit" for editors and above, "Suggest an edit" for
 * other members, nothing for visitors. Drawn from the session in the browser only, so a page cached for
 * visitors never holds it.
 */
export default function EditEntryLink({ type, id, editLabel, suggestLabel }: Props) {
  const session = useStore($session);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!$session.get()) hydrateSessionFromCookies();
    setReady(true);
  }, []);
  if (!ready || !session) return null;
  const label = isEditorGroup(session.hikariUserGroup) ? editLabel : suggestLabel;
  return (
    <a
      href={editorPath(type, id)}
      className="inline-flex items-center gap-1 text-sm text-zinc-500 hover:text-accent dark:text-zinc-400"
      data-edit-link={type}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" className="hk-icon size-4">
        <path d="M12 20h9M16.5 3.5a2.12 2.12 0 0 1 3 3L7 19l-4 1 1-4Z" />
      </svg>
      {label}
    </a>
  );
}
