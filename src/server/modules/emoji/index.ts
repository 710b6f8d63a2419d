import { defineModule } from '../module.ts';
import { emojiRoutes } from './emoji.routes.ts';

/** Emoji sets and their emojis: the picker's sets, one emoji's source for text, the creators' management. */
export const emojiModule = defineModule({ name: 'emoji', api: emojiRoutes });
