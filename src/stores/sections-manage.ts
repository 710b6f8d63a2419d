import type { ApiClient } from './api-client.ts';
import type { sectionsContract } from '../shared/community/sections.contract.ts';

/** The API client and the section management contract, loaded when an island first needs them. */
export async function loadSectionsApi(): Promise<{ client: ApiClient; contract: typeof sectionsContract }> {
  const [{ api }, { sectionsContract: contract }] = await Promise.all([
    import('./api-client.ts'),
    import('../shared/community/sections.contract.ts'),
  ]);
  return { client: api, contract };
}

/** The ids in order with the one at `index` moved one place up (-1) or down (+1); unchanged at an end. */
export function moveId(ids: readonly number[], index: number, step: -1 | 1): number[] {
  const to = index + step;
  if (index < 0 || index >= ids.length || to < 0 || to >= ids.length) return [...ids];
  const next = [...ids];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** The message of a failed call (the API's, translated by the server), or the error's text. */
export const failureText = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : String(error);
