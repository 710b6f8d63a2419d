import type { AreaMessages } from '../message.ts';
import type { sections as reference } from '../zh-CN/sections.ts';

/** en messages of section and topic management (/create/section/…). */
export const sections: AreaMessages<typeof reference> = {
  'sections.title': 'Section management',
};
