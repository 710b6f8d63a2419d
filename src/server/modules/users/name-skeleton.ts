import { rectifyConfusion } from 'unicode-confusables';
import { normaliseName } from '../../../shared/input-rules.ts';

/**
 * The confusable skeleton of a user name: NFKC, lower-cased, every character replaced by its
 * prototype from the Unicode confusables table (UTS #39), lower-cased again. Names with the same
 * skeleton look alike ("hikаri_admin" with a Cyrillic а, "HIKARI_ADMIN", "hikari_adrnin"), so only one
 * of them may exist; the unique index on users.name_skeleton holds that.
 */
export function nameSkeleton(name: string): string {
  return rectifyConfusion(normaliseName(name.trim()).toLowerCase()).toLowerCase();
}
