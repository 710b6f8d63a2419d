import type { catalogueContract } from '../shared/catalogue/catalogue.contract.ts';
import type { ApiClient } from './api-client.ts';

/*
 * What the Galgame pages' stores (catalogue.ts: favourites and ratings; downloads.ts) share: the API
 * client and the contract they call through, both loaded with the first call, and the outcome of an action.
 */

type CatalogueContract = typeof catalogueContract;

/**
 * The catalogue contract carries its request schemas (zod): it loads with the first call, so a
 * visitor's game page, which calls nothing, does without it. Once here, calls go out at once
 * (`loadedCatalogueContract() ?? (await loadCatalogueContract())`).
 */
let loaded: CatalogueContract | null = null;
export const loadedCatalogueContract = () => loaded;
export async function loadCatalogueContract(): Promise<CatalogueContract> {
  loaded ??= (await import('../shared/catalogue/catalogue.contract.ts')).catalogueContract;
  return loaded;
}

export type CatalogueApi = Pick<ApiClient, 'call'>;

/** The page's API client, loaded with the first call as well. */
export const browserApi: CatalogueApi = {
  call: async (endpoint, ...input) => (await import('./api-client.ts')).api.call(endpoint, ...input),
};

/** What an action ends with: islands show it instead of catching errors. */
export type Outcome = { ok: true } | { ok: false; message: string };

export const failure = (error: unknown): Outcome => ({
  ok: false,
  message: error instanceof Error && error.message ? error.message : String(error),
});

/** A game's key in the stores' maps. */
export const gameKey = (id: number) => String(id);
