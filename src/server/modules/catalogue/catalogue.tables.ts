import type { Generated, Selectable } from 'kysely';
import type {
  CharacterRole,
  DownloadLanguage,
  FavoriteItemType,
  GalgameStatus,
  Platform,
  PlayStatus,
  ProducerRole,
  Relation,
  StaffRole,
  TranslationType,
} from '../../../shared/catalogue-model.ts';

export interface GalgameTable {
  id: number;
  title: string;
  title_zh: Generated<string>;
  /** JSON string[] */
  aliases: Generated<string>;
  intro: Generated<string>;
  release_date: string | null;
  release_year: number | null;
  /** JSON GalgamePrice[] */
  prices: Generated<string>;
  cover: Generated<string>;
  /** JSON string[] */
  images: Generated<string>;
  nsfw: Generated<number>;
  status: Generated<GalgameStatus>;
  view_count: Generated<number>;
  favorite_count: Generated<number>;
  rating_count: Generated<number>;
  rating_sum: Generated<number>;
  rating_avg: Generated<number>;
  /** JSON number[10]: how many ratings gave 1…10 */
  score_hist: Generated<string>;
  bangumi_id: number | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
export type GalgameRow = Selectable<GalgameTable>;

export interface GalgamePlatformTable {
  galgame_id: number;
  platform: Platform;
}

export interface TagTable {
  id: number;
  name: string;
  name_zh: Generated<string>;
  category: Generated<string>;
  description: Generated<string>;
  game_count: Generated<number>;
  created_at: string;
}

export interface GalgameTagTable {
  galgame_id: number;
  tag_id: number;
  votes: Generated<number>;
  spoiler: Generated<number>;
}

interface EntityColumns {
  id: number;
  name: string;
  name_zh: Generated<string>;
  aliases: Generated<string>;
  description: Generated<string>;
  image: Generated<string>;
  bangumi_id: number | null;
  created_at: string;
  updated_at: string;
}
export interface ProducerTable extends EntityColumns {
  kind: Generated<string>;
  website: Generated<string>;
}
export interface PersonTable extends EntityColumns {
  gender: Generated<string>;
  birthday: Generated<string>;
}
export type CharacterTable = PersonTable;

export interface GalgameProducerTable {
  galgame_id: number;
  producer_id: number;
  role: ProducerRole;
  note: Generated<string>;
  /** The game's release key (galgame_facet.release_key), so an entity's games read in date order. */
  release_key: Generated<number>;
}
export interface GalgameStaffTable {
  galgame_id: number;
  person_id: number;
  role: StaffRole;
  note: Generated<string>;
  /** The game's release key (galgame_facet.release_key), so an entity's games read in date order. */
  release_key: Generated<number>;
}
export interface GalgameCharacterTable {
  galgame_id: number;
  character_id: number;
  role: CharacterRole;
  voice_person_id: number | null;
  /** The game's release key (galgame_facet.release_key), so an entity's games read in date order. */
  release_key: Generated<number>;
}
export interface GalgameRelationTable {
  galgame_id: number;
  related_id: number;
  relation: Relation;
}

export interface GalgameDownloadTable {
  id: number;
  galgame_id: number;
  language: DownloadLanguage;
  platform: Platform;
  translation_type: TranslationType;
  translation_group: Generated<string>;
  size_bytes: number | null;
  note: Generated<string>;
  created_at: string;
}
export interface DownloadLinkTable {
  id: number;
  download_id: number;
  label: Generated<string>;
  url: string;
  password: Generated<string>;
  report_count: Generated<number>;
  created_at: string;
}
export interface LinkReportTable {
  link_id: number;
  user_id: string;
  reason: Generated<string>;
  created_at: string;
}

export interface FavoriteTable {
  id: number;
  user_id: string;
  item_type: FavoriteItemType;
  item_id: number;
  created_at: string;
}

export interface RatingTable {
  id: number;
  user_id: string;
  galgame_id: number;
  score: number;
  play_status: PlayStatus;
  text: Generated<string>;
  spoiler: Generated<number>;
  like_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

/**
 * A published game under one filter value of the lists ('all', 'tag:5', 'platform:switch',
 * 'translation:fan', 'year:2010', 'tag:5+translation:fan'), with its sort keys and the filters the
 * facet does not cover. Kept by catalogue.facets.ts in every write of the game.
 */
export interface GalgameFacetTable {
  facet: string;
  galgame_id: number;
  nsfw: number;
  /** YYYYMMDD of the release date; 0 when it is not known yet (TBD sorts last). */
  release_key: number;
  rating_avg: number;
  view_count: number;
  platform_mask: number;
  translation_mask: number;
}

/** How many games a facet holds, per NSFW flag. */
export interface GalgameFacetCountTable {
  facet: string;
  nsfw: number;
  games: number;
}

declare module '../../db/database.ts' {
  interface Database {
    galgame: GalgameTable;
    galgame_platform: GalgamePlatformTable;
    tag: TagTable;
    galgame_tag: GalgameTagTable;
    producer: ProducerTable;
    person: PersonTable;
    character: CharacterTable;
    galgame_producer: GalgameProducerTable;
    galgame_staff: GalgameStaffTable;
    galgame_character: GalgameCharacterTable;
    galgame_relation: GalgameRelationTable;
    galgame_download: GalgameDownloadTable;
    download_link: DownloadLinkTable;
    link_report: LinkReportTable;
    favorite: FavoriteTable;
    rating: RatingTable;
    galgame_facet: GalgameFacetTable;
    galgame_facet_count: GalgameFacetCountTable;
  }
}

declare module '../../db/ids.ts' {
  interface IdCounters {
    galgame_id: true;
    producer_id: true;
    person_id: true;
    character_id: true;
    tag_id: true;
    download_id: true;
    download_link_id: true;
    rating_id: true;
    favorite_id: true;
  }
}
