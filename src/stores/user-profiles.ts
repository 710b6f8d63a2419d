import { map } from 'nanostores';
import type { PublicUser } from '../shared/auth-model.ts';
import { browserApi, failure, type CatalogueApi as Api } from './catalogue-client.ts';
import { loadUsersContract } from './follow.ts';

// The profiles user cards show (decision 023), asked for once per member and kept for the page's life.

export type ProfileEntry =
  { status: 'loading' } | { status: 'ready'; user: PublicUser } | { status: 'error'; message: string };

/** Public profiles by userId (GET /user/profile/{id}), one request per member while it is out. */
export function createProfiles(client: Api) {
  const $profiles = map<Record<string, ProfileEntry>>({});
  const out = new Map<number, Promise<void>>();
  return {
    $profiles,
    /** Loads the member's profile unless it is here or on its way; a failed one is asked again. */
    load(userId: number): Promise<void> {
      const key = String(userId);
      if ($profiles.get()[key]?.status === 'ready') return Promise.resolve();
      let request = out.get(userId);
      if (!request) {
        $profiles.setKey(key, { status: 'loading' });
        request = (async () => {
          try {
            const api = await loadUsersContract();
            const answer = await client.call(api.profile, { params: { id: key } });
            $profiles.setKey(key, { status: 'ready', user: answer.data.user });
          } catch (error) {
            const outcome = failure(error);
            $profiles.setKey(key, { status: 'error', message: outcome.ok ? '' : outcome.message });
          } finally {
            out.delete(userId);
          }
        })();
        out.set(userId, request);
      }
      return request;
    },
  };
}

export const profiles = createProfiles(browserApi);
