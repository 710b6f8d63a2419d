import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { ContentType } from '../../../shared/community/community.ts';
import {
  asksModeratedSections,
  contentKey,
  contentModeration,
  contentRights,
  editHref,
  moderatedSections,
  type ContentRights,
  type ModerationEntry,
} from '../../../stores/community.ts';
import { confirmDialog } from '../../../stores/dialog.ts';
import { $session, hydrateSessionFromCookies } from '../../../stores/session.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

interface ContentActionsProps {
  type: ContentType;
  id: number;
  authorUserId: number;
  pinned: boolean;
  featured: boolean;
  /** Pinning and featuring are for published items only. */
  published: boolean;
  /** Its author edits a draft or a published item (not one moderators hid). */
  editable: boolean;
  /** Its section, whose moderators get the moderation buttons too. */
  sectionId: number | null;
  /** What the server rendered from the user-info cookie (display only), so hydration matches it. */
  initialRights: ContentRights;
  /** Where to go once the item is deleted. */
  afterDelete: string;
}

const button = 'hk-btn hk-btn-ghost h-9 gap-1.5 px-3';

/**
 * What the author (edit, delete) and the moderators (pin, feature, delete) do with a post or article.
 * Shown from the session in the browser, never from the shared page; every call is checked by the API.
 */
function ContentActions(props: ContentActionsProps) {
  const { type, id, authorUserId, published, editable, sectionId, initialRights, afterDelete } = props;
  const t = useT();
  const session = useStore($session);
  const all = useStore(contentModeration.$moderation);
  const moderated = useStore(moderatedSections.$moderated);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!$session.get()) hydrateSessionFromCookies();
    setReady(true);
  }, []);
  useEffect(
    () => contentModeration.seed(type, id, { pinned: props.pinned, featured: props.featured }),
    [type, id, props.pinned, props.featured],
  );

  const asks = ready && asksModeratedSections(session, sectionId);
  const userId = session?.userId;
  useEffect(() => {
    if (asks && userId !== undefined) void moderatedSections.load(userId);
  }, [asks, userId]);

  const sections = session && moderated?.userId === session.userId ? moderated.sectionIds : null;
  const rights = ready ? contentRights(session, authorUserId, { sectionId, moderated: sections }) : initialRights;
  const entry: ModerationEntry = (ready ? all[contentKey(type, id)] : undefined) ?? {
    pinned: props.pinned,
    featured: props.featured,
    deleted: false,
    pending: false,
  };
  if (!rights.canEdit && !rights.canModerate) return null;

  const moderate = async (change: { pinned: boolean } | { featured: boolean }) => {
    const outcome = await contentModeration.set(type, id, change);
    if (outcome.ok) {
      const done =
        'pinned' in change
          ? change.pinned
            ? 'forum.action.pinDone'
            : 'forum.action.unpinDone'
          : change.featured
            ? 'forum.action.featureDone'
            : 'forum.action.unfeatureDone';
      toast.success(t(done));
    } else if (!('busy' in outcome)) {
      toast.error(t('forum.action.failed', { message: outcome.message }));
    }
  };

  const remove = async () => {
    const sure = await confirmDialog({
      message: t(type === 'post' ? 'forum.action.deletePostConfirm' : 'forum.action.deleteArticleConfirm'),
      confirmText: t('forum.action.delete'),
    });
    if (!sure) return;
    const outcome = await contentModeration.remove(type, id);
    if (outcome.ok) {
      toast.success(t('forum.action.deleted'));
      const { navigate } = await import('astro:transitions/client');
      await navigate(afterDelete);
    } else if (!('busy' in outcome)) {
      toast.error(t('forum.action.deleteFailed', { message: outcome.message }));
    }
  };

  return (
    <div
      className="flex flex-wrap items-center gap-2"
      role="group"
      aria-label={rights.canModerate ? t('forum.action.moderation') : t('forum.action.toolbar')}
      data-testid="content-actions"
    >
      {rights.canEdit && editable && (
        <a href={editHref(type, id)} className={button} data-testid="content-edit">
          <Icon name="pencil" className="size-4" />
          {t('forum.action.edit')}
        </a>
      )}
      {rights.canModerate && published && (
        <>
          <button
            type="button"
            className={`${button} ${entry.pinned ? 'text-accent ring-primary-300 dark:ring-primary-700' : ''}`}
            disabled={entry.pending}
            onClick={() => void moderate({ pinned: !entry.pinned })}
            data-testid="content-pin"
          >
            <Icon name="pin" className="size-4" />
            {entry.pinned ? t('forum.action.unpin') : t('forum.action.pin')}
          </button>
          <button
            type="button"
            className={`${button} ${entry.featured ? 'text-amber-700 ring-amber-300 dark:text-amber-300 dark:ring-amber-500/40' : ''}`}
            disabled={entry.pending}
            onClick={() => void moderate({ featured: !entry.featured })}
            data-testid="content-feature"
          >
            <Icon name="sparkles" className="size-4" />
            {entry.featured ? t('forum.action.unfeature') : t('forum.action.feature')}
          </button>
        </>
      )}
      <button
        type="button"
        className={`${button} text-rose-700 hover:bg-rose-50 hover:text-rose-800 dark:text-rose-300 dark:hover:bg-rose-500/10`}
        disabled={entry.pending || entry.deleted}
        onClick={() => void remove()}
        data-testid="content-delete"
      >
        <Icon name="trash" className="size-4" />
        {t('forum.action.delete')}
      </button>
    </div>
  );
}

export default withLocale(ContentActions);
