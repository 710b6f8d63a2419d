import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { z } from 'astro/zod';

/** The frontmatter text of another locale; the body stays in its one language (Chinese). */
const translation = z.object({
  title: z.string(),
  description: z.string().max(120),
});

const page = z.object({
  title: z.string(),
  description: z.string().max(80),
  order: z.number().int(),
  updated: z.coerce.date(),
  en: translation.optional(),
});

/** Docs under /docs/{slug...}; the slug is the file's path inside content/docs. */
const docs = defineCollection({
  loader: glob({ pattern: '**/*.mdx', base: './content/docs' }),
  schema: page,
});

/** Stand-alone static pages: /privacy-policy, /terms-of-service, /friend-links. */
const pages = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './content/pages' }),
  schema: page,
});

export const collections = { docs, pages };
