import { atom } from 'nanostores';
import { endpointUrl } from '../shared/contract.ts';
import { PUBLIC_CONFIG_ELEMENT_ID, type PublicConfig } from '../shared/public-config.ts';
import { siteContract } from '../shared/site/site.contract.ts';

const EMPTY: PublicConfig = {
  imageBedUrl: '/media',
  imageAllowedHosts: [],
  analytics: null,
  chatUrl: null,
  navAdUrl: null,
};

function readEmbedded(): PublicConfig | null {
  if (typeof document === 'undefined') return null;
  const element = document.getElementById(PUBLIC_CONFIG_ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    return { ...EMPTY, ...(JSON.parse(element.textContent) as Partial<PublicConfig>) };
  } catch {
    return null;
  }
}

/** The browser's copy of the public configuration (embedded in server-rendered pages). */
export const $publicConfig = atom<PublicConfig>(readEmbedded() ?? EMPTY);

let loading: Promise<PublicConfig> | null = null;

/** Resolves the public configuration: embedded in the page, or fetched once (prerendered pages). */
export function loadPublicConfig(): Promise<PublicConfig> {
  const embedded = readEmbedded();
  if (embedded) {
    $publicConfig.set(embedded);
    return Promise.resolve(embedded);
  }
  loading ??= fetch(endpointUrl(siteContract.config, {}))
    .then(async (res) => {
      const body = (await res.json()) as { data?: PublicConfig };
      const config = { ...EMPTY, ...body.data };
      $publicConfig.set(config);
      return config;
    })
    .catch((error: unknown) => {
      console.warn('[config] public configuration unavailable', error);
      loading = null;
      return $publicConfig.get();
    });
  return loading;
}
