import * as Dialog from '@radix-ui/react-dialog';
import type { FoliateTocItem } from 'foliate-js/view.js';
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import type { MessageKey } from '../../../shared/i18n/index.ts';
import { loginHref } from '../../../shared/catalogue-format.ts';
import { READER_PATH } from '../../../shared/error-page.ts';
import { createReaderBookmarks } from '../../../stores/reader-bookmarks.ts';
import { percentText } from '../../../stores/reader-progress.ts';
import {
  FONT_SIZE,
  LINE_HEIGHT,
  READER_FLOWS,
  READER_FONTS,
  READER_THEMES,
  stepFontSize,
  stepLineHeight,
  type ReaderSettings,
  type ReaderTheme,
} from '../../../stores/reader-settings.ts';
import { toast } from '../../../stores/toast.ts';
import { Icon } from '../ui/Icon.tsx';
import { useLocale, useT } from '../ui/use-t.ts';

export type PanelName = 'toc' | 'bookmarks' | 'settings';

interface Place {
  cfi: string;
  chapter: string;
  percentage: number;
}

export interface ReaderPanelProps {
  open: PanelName | null;
  onClose: () => void;
  toc: FoliateTocItem[];
  currentHref: string;
  onNavigate: (target: string) => void;
  settings: ReaderSettings;
  onSettings: (change: Partial<ReaderSettings>) => void;
  volumeId: number;
  loggedIn: boolean;
  place: Place;
  theme: ReaderTheme;
}

const TITLES: Record<PanelName, MessageKey> = {
  toc: 'reader.toc',
  bookmarks: 'reader.bookmarks',
  settings: 'reader.settings',
};

const sheetColours: Record<ReaderTheme, string> = {
  light: 'bg-white text-zinc-800',
  sepia: 'bg-[#f4ecd8] text-[#3b2f1e]',
  dark: 'bg-zinc-900 text-zinc-100',
};

/** The reader's side sheet: table of contents, bookmarks or settings (a modal dialog with a focus trap). */
export function ReaderPanel(props: ReaderPanelProps) {
  const t = useT();
  const { open, onClose, theme } = props;
  return (
    <Dialog.Root open={open !== null} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[1000] bg-black/40" />
        <Dialog.Content
          className={`fixed inset-y-0 right-0 z-[1001] flex w-[min(24rem,100vw)] flex-col shadow-xl ${sheetColours[theme]} ${
            theme === 'dark' ? 'dark' : ''
          }`}
          aria-describedby={undefined}
          data-testid={open ? `reader-panel-${open}` : undefined}
        >
          <div className="flex h-14 shrink-0 items-center justify-between border-b border-current/15 px-4">
            <Dialog.Title className="text-base font-semibold">{open ? t(TITLES[open]) : ''}</Dialog.Title>
            <Dialog.Close
              className="inline-flex size-10 items-center justify-center rounded-full hover:bg-black/5 dark:hover:bg-white/10"
              aria-label={t('reader.close')}
            >
              <Icon name="x" />
            </Dialog.Close>
          </div>
          <div className="min-h-0 flex-1 overflow-y-auto p-4">
            {open === 'toc' && <TocList {...props} />}
            {open === 'settings' && <SettingsForm {...props} />}
            {open === 'bookmarks' && <BookmarkList {...props} />}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function TocList({ toc, currentHref, onNavigate }: ReaderPanelProps) {
  const t = useT();
  if (toc.length === 0) return <p className="text-sm opacity-80">{t('reader.tocEmpty')}</p>;
  const items = (list: FoliateTocItem[], depth: number) => (
    <ul className={depth ? 'ms-4' : ''}>
      {list.map((item, index) => (
        <li key={`${item.href ?? ''}-${index}`}>
          <button
            type="button"
            className="w-full rounded-lg px-3 py-2 text-start text-sm hover:bg-black/5 aria-[current=true]:font-semibold aria-[current=true]:underline dark:hover:bg-white/10"
            aria-current={item.href && item.href === currentHref ? 'true' : undefined}
            disabled={!item.href}
            onClick={() => item.href && onNavigate(item.href)}
          >
            {item.label?.trim() || t('reader.noChapter')}
          </button>
          {item.subitems?.length ? items(item.subitems, depth + 1) : null}
        </li>
      ))}
    </ul>
  );
  return (
    <nav aria-label={t('reader.toc')} data-testid="reader-toc">
      {items(toc, 0)}
    </nav>
  );
}

const chip =
  'rounded-full px-3 py-1.5 text-sm ring-1 ring-current/25 aria-[pressed=true]:bg-current/15 aria-[pressed=true]:font-semibold aria-[pressed=true]:ring-2';

function Stepper(props: {
  label: string;
  value: string;
  onLess: () => void;
  onMore: () => void;
  lessDisabled: boolean;
  moreDisabled: boolean;
  testId: string;
}) {
  const t = useT();
  const button =
    'inline-flex size-9 items-center justify-center rounded-full ring-1 ring-current/25 disabled:opacity-40 hover:bg-black/5 dark:hover:bg-white/10';
  return (
    <div className="flex items-center justify-between gap-3" role="group" aria-label={props.label}>
      <span className="text-sm">{props.label}</span>
      <div className="flex items-center gap-2">
        <button
          type="button"
          className={button}
          aria-label={t('reader.smaller', { what: props.label })}
          onClick={props.onLess}
          disabled={props.lessDisabled}
          data-testid={`${props.testId}-less`}
        >
          <Icon name="minus" className="size-4" />
        </button>
        <output className="w-10 text-center text-sm tabular-nums" data-testid={props.testId} aria-live="polite">
          {props.value}
        </output>
        <button
          type="button"
          className={button}
          aria-label={t('reader.larger', { what: props.label })}
          onClick={props.onMore}
          disabled={props.moreDisabled}
          data-testid={`${props.testId}-more`}
        >
          <Icon name="plus" className="size-4" />
        </button>
      </div>
    </div>
  );
}

function Choice<T extends string>(props: {
  label: string;
  values: readonly T[];
  current: T;
  text: (value: T) => string;
  onPick: (value: T) => void;
  testId: string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm">{props.label}</legend>
      <div className="flex flex-wrap gap-2">
        {props.values.map((value) => (
          <button
            key={value}
            type="button"
            className={chip}
            aria-pressed={value === props.current}
            onClick={() => props.onPick(value)}
            data-testid={`${props.testId}-${value}`}
          >
            {props.text(value)}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

function SettingsForm({ settings, onSettings }: ReaderPanelProps) {
  const t = useT();
  return (
    <div className="flex flex-col gap-6" data-testid="reader-settings">
      <Choice
        label={t('reader.settings.flow')}
        values={READER_FLOWS}
        current={settings.flow}
        text={(value) => t(`reader.flow.${value}`)}
        onPick={(flow) => onSettings({ flow })}
        testId="reader-flow"
      />
      <Stepper
        label={t('reader.settings.fontSize')}
        value={String(settings.fontSize)}
        onLess={() => onSettings({ fontSize: stepFontSize(settings, -1) })}
        onMore={() => onSettings({ fontSize: stepFontSize(settings, 1) })}
        lessDisabled={settings.fontSize <= FONT_SIZE.min}
        moreDisabled={settings.fontSize >= FONT_SIZE.max}
        testId="reader-font-size"
      />
      <Stepper
        label={t('reader.settings.lineHeight')}
        value={settings.lineHeight.toFixed(1)}
        onLess={() => onSettings({ lineHeight: stepLineHeight(settings, -1) })}
        onMore={() => onSettings({ lineHeight: stepLineHeight(settings, 1) })}
        lessDisabled={settings.lineHeight <= LINE_HEIGHT.min}
        moreDisabled={settings.lineHeight >= LINE_HEIGHT.max}
        testId="reader-line-height"
      />
      <Choice
        label={t('reader.settings.font')}
        values={READER_FONTS}
        current={settings.font}
        text={(value) => t(`reader.font.${value}`)}
        onPick={(font) => onSettings({ font })}
        testId="reader-font"
      />
      <Choice
        label={t('reader.settings.theme')}
        values={READER_THEMES}
        current={settings.theme}
        text={(value) => t(`reader.theme.${value}`)}
        onPick={(theme) => onSettings({ theme })}
        testId="reader-theme"
      />
    </div>
  );
}

const loadContract = () => import('../../../shared/lightnovel/reading.contract.ts').then((m) => m.readingContract);

function BookmarkList({ volumeId, loggedIn, place, onNavigate }: ReaderPanelProps) {
  const t = useT();
  const locale = useLocale();
  const bookmarks = useMemo(
    () =>
      createReaderBookmarks(
        {
          call: async (endpoint, ...input) =>
            (await import('../../../stores/api-client.ts')).api.call(endpoint, ...input),
        },
        loadContract,
        volumeId,
      ),
    [volumeId],
  );
  const state = useStore(bookmarks.$bookmarks);
  const [note, setNote] = useState('');
  const [editing, setEditing] = useState<{ id: number; note: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (loggedIn) void bookmarks.load();
  }, [bookmarks, loggedIn]);

  if (!loggedIn) {
    const here = typeof window === 'undefined' ? READER_PATH : `${window.location.pathname}${window.location.search}`;
    return (
      <div className="flex flex-col items-start gap-3 text-sm" data-testid="reader-bookmarks-login">
        <p>{t('reader.bookmark.login')}</p>
        <a className="hk-btn hk-btn-primary" href={loginHref(here)} data-astro-reload>
          {t('reader.bookmark.loginLink')}
        </a>
      </div>
    );
  }

  const report = (outcome: { ok: true } | { ok: false; message: string }, success: MessageKey) => {
    if (outcome.ok) toast.success(t(success));
    else toast.error(outcome.message);
    return outcome.ok;
  };

  const add = async () => {
    if (!place.cfi) return;
    setBusy(true);
    if (report(await bookmarks.add(place, note), 'reader.bookmarkAdded')) setNote('');
    setBusy(false);
  };

  const field =
    'w-full rounded-lg bg-transparent px-3 py-2 text-sm ring-1 ring-current/30 focus:ring-2 focus:outline-none';
  return (
    <div className="flex flex-col gap-4" data-testid="reader-bookmarks">
      <div className="flex flex-col gap-2">
        <label className="sr-only" htmlFor="reader-bookmark-note">
          {t('reader.label.note')}
        </label>
        <textarea
          id="reader-bookmark-note"
          className={field}
          rows={2}
          maxLength={500}
          placeholder={t('reader.bookmark.notePlaceholder')}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        <button
          type="button"
          className="hk-btn hk-btn-primary self-start"
          disabled={busy || !place.cfi}
          onClick={() => void add()}
          data-testid="reader-bookmark-add"
        >
          <Icon name="bookmark" className="size-4" />
          {t('reader.bookmark.add')}
        </button>
      </div>
      {state.error && (
        <p role="alert" className="text-sm">
          {state.error}
        </p>
      )}
      {!state.loading && state.items.length === 0 && !state.error && (
        <p className="text-sm opacity-80">{t('reader.bookmark.empty')}</p>
      )}
      <ol className="flex flex-col divide-y divide-current/15">
        {state.items.map((bookmark) => (
          <li key={bookmark.id} className="flex flex-col gap-2 py-3" data-testid="reader-bookmark">
            <button
              type="button"
              className="flex items-baseline justify-between gap-2 text-start text-sm font-medium hover:underline"
              aria-label={t('reader.bookmark.jump', { chapter: bookmark.chapter || t('reader.noChapter') })}
              onClick={() => onNavigate(bookmark.cfi)}
            >
              <span className="min-w-0 truncate">{bookmark.chapter || t('reader.noChapter')}</span>
              <span className="shrink-0 text-xs tabular-nums opacity-80">
                {percentText(bookmark.percentage, locale)}
              </span>
            </button>
            {editing?.id === bookmark.id ? (
              <div className="flex flex-col gap-2">
                <label className="sr-only" htmlFor={`reader-bookmark-edit-${bookmark.id}`}>
                  {t('reader.label.note')}
                </label>
                <textarea
                  id={`reader-bookmark-edit-${bookmark.id}`}
                  className={field}
                  rows={2}
                  maxLength={500}
                  value={editing.note}
                  onChange={(event) => setEditing({ id: bookmark.id, note: event.target.value })}
                />
                <div className="flex gap-2">
                  <button
                    type="button"
                    className="hk-btn hk-btn-primary"
                    onClick={async () => {
                      if (report(await bookmarks.edit(bookmark.id, editing.note), 'reader.bookmarkSaved'))
                        setEditing(null);
                    }}
                  >
                    {t('reader.bookmark.save')}
                  </button>
                  <button type="button" className="hk-btn" onClick={() => setEditing(null)}>
                    {t('reader.bookmark.cancel')}
                  </button>
                </div>
              </div>
            ) : (
              <>
                {bookmark.note && <p className="text-sm whitespace-pre-wrap opacity-90">{bookmark.note}</p>}
                <div className="flex gap-1">
                  <button
                    type="button"
                    className="inline-flex size-9 items-center justify-center rounded-full hover:bg-black/5 dark:hover:bg-white/10"
                    aria-label={t('reader.bookmark.edit')}
                    onClick={() => setEditing({ id: bookmark.id, note: bookmark.note })}
                  >
                    <Icon name="pencil" className="size-4" />
                  </button>
                  <button
                    type="button"
                    className="inline-flex size-9 items-center justify-center rounded-full hover:bg-black/5 dark:hover:bg-white/10"
                    aria-label={t('reader.bookmark.delete')}
                    onClick={async () => void report(await bookmarks.remove(bookmark.id), 'reader.bookmarkDeleted')}
                  >
                    <Icon name="trash" className="size-4" />
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
