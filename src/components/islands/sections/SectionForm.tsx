import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  HEX_COLOR,
  SECTION_DESCRIPTION_MAX,
  SECTION_ICONS,
  SECTION_NAME_MAX,
  iconChoice,
  type IconChoice,
} from '../../../shared/community/sections-model.ts';
import type { SectionManageView } from '../../../shared/community/sections-manage.ts';
import type { IconName } from '../../../shared/icons.ts';
import { failureText, loadSectionsApi } from '../../../stores/sections-manage.ts';
import { toast } from '../../../stores/toast.ts';
import { fieldClass, labelClass } from '../community/ContentMetaFields.tsx';
import { Icon } from '../ui/Icon.tsx';
import { withLocale } from '../ui/locale-context.tsx';
import { useT } from '../ui/use-t.ts';

export const LIST_PATH = '/create/section/manage/allsections';
const THEME = '#39c5bb';

/** The chip a section shows on the community pages, as the form's preview. */
export function SectionChipPreview({ name, icon, color }: { name: string; icon: string; color: string }) {
  const tint = HEX_COLOR.test(color) ? color : THEME;
  return (
    <span className="inline-flex items-center gap-2 rounded-full border border-zinc-200 bg-white px-3 py-1.5 text-sm font-medium text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-white">
      <span
        className="inline-flex size-7 items-center justify-center rounded-full text-white"
        style={{ backgroundColor: tint }}
      >
        <Icon name={(icon || 'messages') as IconName} className="size-4" />
      </span>
      {name || '…'}
    </span>
  );
}

/** /create/section: creates a section, or with `?id=` edits one. */
function SectionForm({ sectionId }: { sectionId: number | null }) {
  const t = useT();
  const colorId = useId();
  const [loaded, setLoaded] = useState(sectionId === null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [icon, setIcon] = useState<IconChoice>('messages');
  const [color, setColor] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (sectionId === null) return;
    void (async () => {
      try {
        const { client, contract } = await loadSectionsApi();
        const found = (await client.call(contract.manageSections)).data.find((s) => s.id === sectionId);
        if (!found) {
          setLoadError(t('sections.form.notFound'));
          return;
        }
        setName(found.name);
        setDescription(found.description);
        setIcon(iconChoice(found.icon));
        setColor(found.color);
        setLoaded(true);
      } catch (failure) {
        setLoadError(t('sections.form.loadFailed', { reason: failureText(failure) }));
      }
    })();
  }, [sectionId]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      const { client, contract } = await loadSectionsApi();
      const body = { name, description, icon, color };
      let saved: SectionManageView;
      if (sectionId === null) {
        const answer = await client.call(contract.createSection, { body });
        saved = answer.data;
        toast.success(answer.message);
        window.location.assign(`${LIST_PATH}#section-${saved.id}`);
        return;
      }
      const answer = await client.call(contract.updateSection, { params: { id: sectionId }, body });
      saved = answer.data;
      setName(saved.name);
      toast.success(answer.message);
    } catch (failure) {
      setError(failureText(failure));
    } finally {
      setPending(false);
    }
  };

  if (loadError)
    return (
      <div className="hk-card p-6">
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {loadError}
        </p>
        <a href={LIST_PATH} className="mt-3 inline-block text-sm text-accent hover:underline">
          {t('sections.form.backToList')}
        </a>
      </div>
    );
  if (!loaded) return <p className="text-sm text-zinc-600 dark:text-zinc-400">{t('sections.list.loading')}</p>;

  return (
    <form onSubmit={submit} className="hk-card flex flex-col gap-5 p-4 sm:p-6" aria-busy={pending}>
      <NameFields
        name={name}
        description={description}
        icon={icon}
        limits={{ name: SECTION_NAME_MAX, description: SECTION_DESCRIPTION_MAX, rows: 3 }}
        onName={setName}
        onDescription={setDescription}
        onIcon={setIcon}
      />
      <fieldset>
        <legend className={labelClass}>{t('sections.form.color')}</legend>
        <div className="flex flex-wrap items-center gap-3">
          <input
            id={colorId}
            type="color"
            value={HEX_COLOR.test(color) ? color : THEME}
            onChange={(event) => setColor(event.target.value.toLowerCase())}
            aria-label={t('sections.form.color')}
            className="h-9 w-14 cursor-pointer rounded border border-zinc-300 bg-white p-1 dark:border-zinc-600 dark:bg-zinc-900"
          />
          <code className="text-sm text-zinc-600 dark:text-zinc-300">{color || THEME}</code>
          <label className="inline-flex items-center gap-2 text-sm text-zinc-700 dark:text-zinc-300">
            <input
              type="checkbox"
              checked={color === ''}
              onChange={(event) => setColor(event.target.checked ? '' : THEME)}
            />
            {t('sections.form.noColor')}
          </label>
        </div>
      </fieldset>
      <div>
        <p className={labelClass}>{t('sections.form.preview')}</p>
        <SectionChipPreview name={name.trim()} icon={icon} color={color} />
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending || !name.trim()} className="hk-btn hk-btn-primary h-10 px-5">
          {pending
            ? t('sections.form.saving')
            : sectionId === null
              ? t('sections.form.create')
              : t('sections.form.save')}
        </button>
        <a href={LIST_PATH} className="text-sm text-accent hover:underline">
          {t('sections.form.backToList')}
        </a>
      </div>
    </form>
  );
}

/** A section's or topic's name, description and icon, as both forms ask for them. */
export function NameFields(props: {
  name: string;
  description: string;
  icon: IconChoice;
  limits: { name: number; description: number; rows: number };
  onName: (name: string) => void;
  onDescription: (description: string) => void;
  onIcon: (icon: IconChoice) => void;
}) {
  const t = useT();
  const ids = { name: useId(), description: useId(), icons: useId() };
  return (
    <>
      <div>
        <label htmlFor={ids.name} className={labelClass}>
          {t('sections.form.name')}
        </label>
        <input
          id={ids.name}
          name="name"
          required
          maxLength={props.limits.name}
          value={props.name}
          onChange={(event) => props.onName(event.target.value)}
          className={fieldClass}
        />
      </div>
      <div>
        <label htmlFor={ids.description} className={labelClass}>
          {t('sections.form.description')}
        </label>
        <textarea
          id={ids.description}
          name="description"
          rows={props.limits.rows}
          maxLength={props.limits.description}
          value={props.description}
          onChange={(event) => props.onDescription(event.target.value)}
          className={fieldClass}
        />
      </div>
      <IconPicker id={ids.icons} value={props.icon} onChange={props.onIcon} />
    </>
  );
}

/** The icons a section or topic may take, as a radio group; '' is no icon. */
export function IconPicker({
  id,
  value,
  onChange,
}: {
  id: string;
  value: IconChoice;
  onChange: (icon: IconChoice) => void;
}) {
  const t = useT();
  const choices: IconChoice[] = ['', ...SECTION_ICONS];
  return (
    <fieldset>
      <legend id={id} className={labelClass}>
        {t('sections.form.icon')}
      </legend>
      <div role="radiogroup" aria-labelledby={id} className="flex flex-wrap gap-1.5">
        {choices.map((name) => (
          <label
            key={name || 'none'}
            title={name || t('sections.form.noIcon')}
            className="relative inline-flex size-9 cursor-pointer items-center justify-center rounded-md border border-zinc-300 text-zinc-700 has-[:checked]:border-accent has-[:checked]:bg-accent/10 has-[:checked]:text-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-focus dark:border-zinc-600 dark:text-zinc-200"
          >
            <input
              type="radio"
              name={`${id}-icon`}
              value={name}
              checked={value === name}
              onChange={() => onChange(name)}
              className="sr-only"
              aria-label={name || t('sections.form.noIcon')}
            />
            {name ? <Icon name={name as IconName} className="size-4" /> : <span aria-hidden="true">–</span>}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export default withLocale(SectionForm);
