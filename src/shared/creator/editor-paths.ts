import type { EditType } from './creator-model.ts';

/**
 * Where each catalogue type is edited and shown. Kept apart from the document schemas so a page's small
 * "Edit" link does not bring zod and every schema into its bundle.
 */

/** The public page of an item, where one exists. */
export function publicPath(type: EditType, id: number): string | null {
  switch (type) {
    case 'galgame':
      return `/galgame/${id}`;
    case 'lightnovel':
      return `/lightnovel/${id}`;
    case 'volume':
      return `/lightnovel/volumes/${id}`;
    case 'person':
    case 'character':
    case 'producer':
      return `/${type}/${id}`;
    case 'tag':
      return null;
  }
}

/** The editor of an item (`id` null: a new one). */
export function editorPath(type: EditType, id: number | null): string {
  const base =
    type === 'galgame' || type === 'lightnovel'
      ? `/create/item/${type}`
      : type === 'volume'
        ? '/create/item/lightnovel/volume'
        : `/create/entity/${type}`;
  return id === null ? base : `${base}?id=${id}`;
}
